# frozen_string_literal: true

require_relative "diagnostics/blocking_check"
require_relative "diagnostics/dump"
require_relative "diagnostics/evaluation_waits"
require_relative "diagnostics/logger"
require_relative "procs"

Heddle::Diagnostics::BlockingCheck.enable if Heddle::Diagnostics::BlockingCheck.wanted?
