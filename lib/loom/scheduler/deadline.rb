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
        @due = false
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

      # Disarms the deadline: removes the timer for real if it has not
      # fired, and drops a raise that is queued but has not run yet.
      # @return [void]
      def cancel
        @due = false
        timer = @timer or return
        @timer = nil
        @loop.cancel_timer(timer)
      end

      # Called by the loop when the time is up. The raise waits in the run
      # queue: a fiber run from inside the loop's timer round could finish
      # the loop's work while the loop goes on to sleep.
      # @return [void]
      def __timeout__(_timer)
        return unless @timer

        @timer = nil
        @due = true
        @loop.push(self)
      end

      # Run by the loop: raises in the timed fiber, unless the block finished
      # meanwhile.
      # @return [void]
      def __run__
        return unless @due

        @due = false
        # The loop may run in the timed fiber itself (a fiber outside any
        # concurrent proc runs the loop while it waits): raise right here.
        raise @exception_class, @message if @fiber.equal?(Fiber.current)

        @fiber.raise(@exception_class, @message) if @fiber.alive?
      end

      # A raise is never run by another proc's fiber: a proc fiber that just
      # finished asks the run queue's next entry whether it takes it over
      # (EventLoop#chain), and a deadline queued right behind a start is that
      # entry (issue 14: Timeout.timeout inside Loom.run under load).
      # @param _worker [Object]
      # @return [false]
      def __chain_into__(_worker)
        false
      end
    end
  end
end
