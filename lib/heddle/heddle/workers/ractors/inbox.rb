# frozen_string_literal: true

require_relative "../../masked_lock"
require_relative "../../masks"

module Heddle
  module Workers
    module Ractors
      # Where the collector puts one worker ractor's messages for its lane: a
      # queue whose pop can give up after a time (Thread::Queue#pop takes no
      # timeout on Ruby 3.1), so that the lane can time items itself.
      class Inbox
        def initialize
          @messages = []
          @lock = MaskedLock.new
          @arrived = ConditionVariable.new
        end

        # @param message [Array]
        # @return [void]
        def push(message)
          @lock.synchronize do
            @messages << message
            @arrived.signal
          end
        end

        # @param timeout [Numeric, nil] seconds; nil waits for ever
        # @return [Array, nil] the oldest message, or nil when none came in time
        def pop(timeout = nil)
          deadline = timeout && (Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout)
          @lock.synchronize do
            while @messages.empty?
              left = deadline && (deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC))
              return nil if left && left <= 0

              Thread.handle_interrupt(Masks::INTERRUPTIBLE) { @arrived.wait(@lock, left) }
            end
            @messages.shift
          end
        end
      end
    end
  end
end
