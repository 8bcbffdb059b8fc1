# frozen_string_literal: true

require_relative "logger"

module Heddle
  module Diagnostics
    # With HEDDLE_DEBUG set, warns (to {Heddle.logger}, once per proc) when a
    # concurrent proc ran longer than {LONG_STEP} without suspending while no
    # Fiber scheduler ran it: outside {Heddle.run} a plain blocking call
    # (sleep, an IO read, Net::HTTP) holds the whole thread, so such procs run
    # one at a time though nothing says so. Enabling it prepends timing to
    # the procs' run and waits; without it those hot paths carry nothing.
    module BlockingCheck
      # Seconds a proc may run without suspending before it is reported: far
      # above a fiber switch, below what a person notices.
      LONG_STEP = 0.05
      # Fiber-local seconds the running proc spent suspended in heddle waits.
      SUSPENDED_KEY = :__heddle_suspended_seconds__

      # Times each proc's run (prepended to Heddle::Proc).
      module ProcTiming
        # @return [Object] the proc's result
        def __invoke__(*args)
          return super if Fiber.scheduler

          started = BlockingCheck.now
          Thread.current[SUSPENDED_KEY] = 0.0
          begin
            super
          ensure
            BlockingCheck.report(self, BlockingCheck.now - started - Thread.current[SUSPENDED_KEY])
          end
        end
      end

      # Counts the time a proc spends suspended (prepended to Proc::Evaluation).
      module WaitTiming
        # @return [Object] the resume value
        private def __await__(within, timeout_result)
          BlockingCheck.suspended { super }
        end

        # @return [Object] the resume value
        private def __wait__(seconds)
          BlockingCheck.suspended { super }
        end
      end

      @reported = {}

      class << self
        # Turns the check on (HEDDLE_DEBUG does at require time).
        # @return [true]
        def enable
          Heddle::Proc.prepend(ProcTiming) unless Heddle::Proc <= ProcTiming
          Heddle::Proc::Evaluation.prepend(WaitTiming) unless Heddle::Proc::Evaluation <= WaitTiming
          Heddle::Diagnostics::EvaluationWaits.prepend_once # a zero wait, too, reaches WaitTiming
          true
        end

        # @return [Boolean] whether +env+ asks for debug checks ("" and "0" do not)
        def wanted?(env = ENV)
          Diagnostics.debug?(env)
        end

        # @return [Float] the monotonic clock
        def now
          Process.clock_gettime(Process::CLOCK_MONOTONIC)
        end

        # Runs a wait, adding its length to the proc's suspended time.
        # @return [Object] the wait's value
        def suspended
          started = now
          yield
        ensure
          Thread.current[SUSPENDED_KEY] = (Thread.current[SUSPENDED_KEY] || 0.0) + (now - started)
        end

        # Warns once per proc whose run held the thread longer than {LONG_STEP}.
        # @param proc [Heddle::Proc]
        # @param held [Float] seconds the run held the thread
        # @return [void]
        def report(proc, held)
          return if held <= LONG_STEP || @reported[proc]

          @reported[proc] = true
          Heddle::Diagnostics.log_warning(message(proc, held))
        end

        # @return [String]
        def message(proc, held)
          "heddle (HEDDLE_DEBUG): the concurrent proc at #{proc.source_location&.join(':')} held its thread " \
            "#{format('%.3f', held)} s without suspending, and no Fiber scheduler runs it: outside Heddle.run " \
            "a plain blocking call (sleep, IO, Net::HTTP) blocks every other proc of the thread, so they run " \
            "one at a time. Wrap the code in Heddle.run, use heddle's waits, or worker: :process for CPU work."
        end
      end
    end
  end
end
