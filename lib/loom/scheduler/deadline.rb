# frozen_string_literal: true

module Loom
  class Scheduler
    # The timer behind {Scheduler#timeout_after}: when it fires, the fiber
    # that set it gets +exception_class+ raised where it waits (its wait's
    # ensure blocks run, as for a thread's Timeout).
    class Deadline
      # @param fiber [Fiber] the fiber running the timed block
      # @param exception_class [Class]
      # @param message [String]
      def initialize(fiber, exception_class, message)
        @fiber = fiber
        @exception_class = exception_class
        @message = message
        @timer = nil
      end

      # Arms the deadline on +loop+.
      # @param loop [EventLoop]
      # @param seconds [Numeric]
      # @return [self]
      def arm(loop, seconds)
        @loop = loop
        @timer = loop.add_timer(seconds, self, nil)
        self
      end

      # Removes the timer for real if it has not fired.
      # @return [void]
      def cancel
        timer = @timer or return
        @timer = nil
        @loop.cancel_timer(timer)
      end

      # Called by the loop when the time is up.
      # @return [void]
      def __timeout__(_timer)
        return unless @timer

        @timer = nil
        # The loop may run in the timed fiber itself (a fiber outside any
        # concurrent proc runs the loop while it waits): raise right here.
        raise @exception_class, @message if @fiber.equal?(Fiber.current)

        @fiber.raise(@exception_class, @message) if @fiber.alive?
      end
    end
  end
end
