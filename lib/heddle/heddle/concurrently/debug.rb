# frozen_string_literal: true

module Heddle
  module Concurrently
    # Concurrently::Debug: logs where concurrent procs begin, suspend,
    # resume and end, as Concurrently 1.2.0 does. Enabling it prepends
    # logging to heddle's proc invocation and waits; until then those hot paths
    # carry no debugging cost.
    module Debug
      # Logging wrapped around every concurrent proc run.
      module ProcLogging
        # @return [Object] the proc's result
        def __invoke__(*args)
          fiber = Fiber.current
          Debug.log_begin(fiber, source_location&.join(":"))
          result = super
        rescue Heddle::Proc::Evaluation::Cancelled
          Debug.log_event("'--> CANCEL", fiber, nil)
          raise
        rescue Exception # rubocop:disable Lint/RescueException -- log every way out, then re-raise
          Debug.log_event("'---> ERROR", fiber, nil)
          raise
        else
          Debug.log_event("'-----> END", fiber, nil)
          result
        end
      end

      # Logging around every wait of a concurrent proc.
      module WaitLogging
        # @return [Object] the resume value
        private def __await__(within, timeout_result)
          Debug.log_suspension(caller) { super }
        end

        # A zero wait suspends without #__await__ (inlined for speed), so it
        # is logged here.
        # @return [Object] the resume value
        private def __wait__(seconds)
          return super if seconds.positive?

          Debug.log_suspension(caller) { super }
        end
      end

      @fibers = {}
      @logger = nil
      @filter = false

      class << self
        # Enables logging of the control flow.
        # @param logger [Logger] receives #debug messages
        # @param filter [Array<String>, false] log only locations containing one of these
        # @return [true]
        # @example
        #   require "logger"
        #   Concurrently::Debug.enable Logger.new($stdout)
        def enable(logger, filter = false) # rubocop:disable Style/OptionalBooleanParameter -- Concurrently's signature
          @logger = logger
          @filter = filter
          Heddle::Proc.prepend(ProcLogging) unless Heddle::Proc <= ProcLogging
          Heddle::Proc::Evaluation.prepend(WaitLogging) unless Heddle::Proc::Evaluation <= WaitLogging
          Heddle::Diagnostics::EvaluationWaits.prepend_once # a zero wait, too, reaches WaitLogging
          true
        end

        # @return [void]
        def log_begin(fiber, location)
          return unless @logger && location && wanted?(location)

          @fibers[fiber.__id__] = location
          @logger.debug ".---- BEGIN #{fiber.__id__.to_s(36)} #{location}"
        end

        # @param label [String]
        # @param fiber [Fiber]
        # @param locations [Array<String>, nil] the stack, for SUSPEND/RESUME
        # @return [void]
        def log_event(label, fiber, locations)
          return unless @logger && @fibers.key?(fiber.__id__)

          location = locations ? locations.find { |line| wanted?(line) } : @fibers.delete(fiber.__id__)
          @logger.debug "#{label} #{fiber.__id__.to_s(36)} #{location}" if location
        end

        # Logs SUSPEND, runs the wait, and logs RESUME however it ends.
        # @param locations [Array<String>] the waiting method's stack
        # @return [Object] the block's value
        def log_suspension(locations)
          fiber = Fiber.current
          log_event("'-> SUSPEND", fiber, locations)
          yield
        ensure
          log_event(".--- RESUME", fiber, locations)
        end

        private

        def wanted?(location)
          !location.include?("/lib/heddle/heddle/") && (!@filter || @filter.any? { |part| location.include?(part) })
        end
      end
    end
  end
end
