# frozen_string_literal: true

require_relative "watchdog"
require_relative "../masked_lock"

module Heddle
  class Scheduler
    # The thread side of a {Deadline}: when the time is up, raises the
    # deadline's {Deadline::Expired} in the timed fiber's thread with
    # Thread#raise, which interrupts a blocking call no scheduler sees (a
    # pipe read, Net::HTTP outside Heddle.run), as Ruby's Timeout does.
    #
    # Thread#raise lands in whatever fiber runs on the thread. While the
    # timed fiber is suspended in one of heddle's waits, the thread runs the
    # loop and other fibers, so the watch leaves the raise to the deadline's
    # loop timer, which raises in the right fiber. Whichever fires first
    # {#claim}s the deadline, so it raises once.
    class Watch
      # @return [Float] the monotonic time the watch is due
      attr_reader :due

      # @param thread [Thread] the timed fiber's thread
      # @param evaluation [Heddle::Evaluation] the timed fiber's evaluation
      #   (says whether it is suspended in a heddle wait)
      # @param error [Exception] what to raise ({Deadline::Expired})
      # @param seconds [Numeric]
      def initialize(thread, evaluation, error, seconds)
        @thread = thread
        @evaluation = evaluation
        @error = error
        @due = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
        @lock = MaskedLock.new
        @done = false
        @raised = false
      end

      # @return [self] watched by the {Watchdog}
      def start
        Watchdog.add(self)
        self
      end

      # Run by the {Watchdog} when due: raises in the thread unless the
      # deadline was claimed, or the timed fiber waits on heddle's loop (the
      # loop timer raises then).
      # @return [void]
      def fire
        @lock.synchronize do
          return if @done || @evaluation.__send__(:__suspended__)

          @done = true
          @raised = true
          @thread.raise(@error)
        end
      end

      # Claims the deadline for the loop timer.
      # @return [Boolean] false when the watch fired or was cancelled first
      def claim
        @lock.synchronize do
          return false if @done

          @done = true
        end
      end

      # Stops the watch for good.
      # @return [Boolean] whether it raised in the thread (its raise may
      #   still be pending there)
      def cancel
        raised = @lock.synchronize do
          @done = true
          @raised
        end
        Watchdog.remove(self) unless raised
        raised
      end
    end
  end
end
