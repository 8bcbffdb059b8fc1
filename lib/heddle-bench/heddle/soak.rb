# frozen_string_literal: true

require "heddle"

require_relative "soak/cli"
require_relative "soak/load"
require_relative "soak/load_thread"
require_relative "soak/loads"
require_relative "soak/malloc_info"
require_relative "soak/malloc_trim"
require_relative "soak/runner"
require_relative "soak/sample"
require_relative "soak/trend"
require_relative "soak/watchdog"

module Heddle
  # `heddle soak`: mixed load for minutes on end (concurrent procs with waits
  # and timeouts, Timeout.timeout, IO over pipes and localhost sockets,
  # promises across threads, pools of every backend made and dropped),
  # with every result checked and the process's RSS, file descriptors,
  # threads and child processes sampled as it goes. It fails when a result
  # is wrong, a round hangs, or anything grows beyond a limit after the
  # warm-up. See docs/workers.md, "Soak".
  #
  # @example
  #   Heddle::Soak::CLI.new(%w[--seconds 60]).run # => 0 when clean
  module Soak
    # The base of the soak's own errors.
    class Error < Heddle::Error; end

    # A load saw a result other than the one it expected.
    class WrongResult < Error; end

    # Bad command-line input.
    class UsageError < Error; end

    # Raised in the main thread by the watchdog: a round did not finish.
    class Stuck < Error; end

    # Raised by a load that cannot run another round (the helper process
    # it works through has ended): the soak counts it once and runs the
    # other loads on, instead of failing that load thousands of times a
    # second for the rest of the run.
    class LoadEnded < Error; end
  end
end
