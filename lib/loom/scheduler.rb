# frozen_string_literal: true

require_relative "procs"
require_relative "scheduler/error"
require_relative "scheduler/blocking_fiber"
require_relative "scheduler/raw_io"
require_relative "scheduler/positional_io"
require_relative "scheduler/io_select"
require_relative "scheduler/drain"
require_relative "scheduler/deadline"
require_relative "scheduler/off_thread"
require_relative "scheduler/scheduler"
require_relative "scheduler/runner"
require_relative "scheduler/run"
