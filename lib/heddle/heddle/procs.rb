# frozen_string_literal: true

require_relative "loop"
require_relative "procs/api"
require_relative "procs/evaluation"
require_relative "procs/proc"
require_relative "procs/proc/arguments"
require_relative "procs/proc/error_hook"
require_relative "procs/proc/evaluation"
require_relative "procs/proc/evaluation_extras"
require_relative "procs/proc/pooled_fiber"
require_relative "procs/proc/queued_call"
require_relative "procs/waits"

Heddle::Proc.error_log_output = Heddle::STDERR_LOG
