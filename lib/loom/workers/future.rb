# frozen_string_literal: true

module Loom
  module Workers
    # A minimal thread-safe promise used by `Pool#submit` only while
    # `Loom::Promise` is not loaded; it answers the same methods
    # (docs/CONTRACTS.md "Promises"), so callers never notice which they got.
    class Future
      # Raised when a future is resolved twice.
      class AlreadyResolvedError < Loom::Error; end

      def initialize
        @mutex = Mutex.new
        @resolved = ConditionVariable.new
        @state = :pending
      end

      # @param value [Object]
      # @return [self]
      # @raise [AlreadyResolvedError] when already resolved
      def fulfill(value) = resolve(:fulfilled, value)

      # @param error [Exception]
      # @return [self]
      # @raise [AlreadyResolvedError] when already resolved
      def reject(error) = resolve(:rejected, error)

      # @param timeout [Numeric, nil] seconds to wait at most (nil: forever)
      # @return [Boolean] true once resolved, false on timeout
      def wait(timeout = nil)
        deadline = timeout && (Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout)
        @mutex.synchronize do
          while @state == :pending
            left = deadline && (deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC))
            return false if left && left <= 0

            @resolved.wait(@mutex, left)
          end
        end
        true
      end

      # @param timeout [Numeric, nil]
      # @return [Object, nil] the value; nil when rejected or on timeout
      def value(timeout = nil)
        wait(timeout) && @state == :fulfilled ? @value : nil
      end

      # @param timeout [Numeric, nil]
      # @return [Object] the value
      # @raise [Exception] the rejection error
      # @raise [Loom::Workers::TimeoutError] when not resolved within timeout
      def value!(timeout = nil)
        raise TimeoutError, "not resolved within #{timeout} s; wait longer or check the worker" unless wait(timeout)
        raise @value if @state == :rejected

        @value
      end

      # @return [Boolean]
      def resolved? = @state != :pending
      # @return [Boolean]
      def fulfilled? = @state == :fulfilled
      # @return [Boolean]
      def rejected? = @state == :rejected

      # @return [Exception, nil] the rejection error, if rejected
      def reason = rejected? ? @value : nil

      private

      def resolve(state, value)
        @mutex.synchronize do
          raise AlreadyResolvedError, "already #{@state}; a future resolves once" unless @state == :pending

          @value = value
          @state = state
          @resolved.broadcast
        end
        self
      end
    end
  end
end
