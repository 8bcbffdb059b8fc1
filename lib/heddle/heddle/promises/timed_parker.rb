# frozen_string_literal: true

require_relative "../masked_lock"
require_relative "../masks"

module Heddle
  module Promises
    # Like {Parker}, for waits with a timeout: Ruby 3.1's Thread::Queue#pop
    # cannot time out, so this parker is a Mutex, a ConditionVariable and a
    # permit (the token), made once per fiber. {#resume!} grants the permit;
    # {#park} consumes it or sleeps until it is granted or time runs out. A
    # spurious or stale wake-up is harmless: the waiter re-checks the promise.
    class TimedParker
      KEY = :__heddle_promise_timed_parker
      private_constant :KEY

      # @return [TimedParker] the calling fiber's timed parker, made on first use
      def self.current
        Thread.current[KEY] ||= new
      end

      def initialize
        @mutex = MaskedLock.new
        @condition = Thread::ConditionVariable.new
        @permit = false
      end

      # Grants the permit and wakes the parked fiber. Thread-safe.
      # @param _value [Object] ignored: the waiter reads the promise itself
      # @return [void]
      def resume!(_value = nil)
        @mutex.synchronize do
          @permit = true
          @condition.signal
        end
      end

      # Sleeps until the permit is granted or `timeout` seconds pass.
      # @param timeout [Numeric] seconds, > 0
      # @return [void]
      def park(timeout)
        @mutex.synchronize do
          Thread.handle_interrupt(Masks::INTERRUPTIBLE) { @condition.wait(@mutex, timeout) } unless @permit
          @permit = false
        end
      end
    end
  end
end
