# frozen_string_literal: true

require_relative "../masks"
require_relative "../seconds"
require_relative "watch"

module Heddle
  class Scheduler
    # The timer behind {Scheduler#timeout_after} and {Heddle.with_timeout}:
    # when it fires, the fiber that set it gets +exception_class+ raised
    # where it waits (its wait's ensure blocks run, as for a thread's
    # Timeout).
    class Deadline
      # What a deferred deadline raises where the fiber waits: not a
      # StandardError, so the block's own `rescue => e` (Net::HTTP's retry
      # on Timeout::Error, say) does not catch it; {#run} turns it into the
      # deadline's error at the block's boundary, as Ruby's Timeout does
      # with its internal exception.
      class Expired < Exception # rubocop:disable Lint/InheritException -- must pass `rescue StandardError`
        # @return [Deadline] the deadline that raised it
        attr_reader :deadline

        # @param deadline [Deadline]
        def initialize(deadline)
          super("deadline expired")
          @deadline = deadline
        end
      end

      # Checks the +seconds+ of {Heddle.with_timeout} before anything is armed.
      # @param seconds [Object]
      # @return [Numeric, nil] +seconds+; nil for Float::INFINITY (no limit)
      # @raise [TypeError] unless a real number
      # @raise [ArgumentError] when negative or NaN
      def self.seconds!(seconds)
        Seconds.check!(seconds, "with_timeout: seconds", :non_negative, no_limit: "Float::INFINITY")
      end

      # @param fiber [Fiber] the fiber running the timed block
      # @param exception_class [Class]
      # @param message [String]
      # @param deferred [Boolean] raise {Expired} in the fiber and
      #   +exception_class+ only at the block's boundary ({#run})
      def initialize(fiber, exception_class, message, deferred: false)
        @fiber = fiber
        @exception_class = exception_class
        @message = message
        @deferred = deferred
        @timer = nil
        @due = false
        @watch = nil
      end

      # Also bounds the blocking calls no scheduler sees: a {Watch} raises in
      # the calling thread when the time is up (see {Heddle.with_timeout}).
      # Deferred deadlines only. The watch starts in {#run}, where its raise
      # is rescued.
      # @param evaluation [Heddle::Evaluation] the timed fiber's evaluation
      # @param seconds [Numeric]
      # @return [self]
      def watch(evaluation, seconds)
        @watch = Watch.new(Thread.current, evaluation, Expired.new(self), seconds)
        self
      end

      # Sets the deadline for +loop+: its timer starts in {#run}, where its
      # raise is rescued and where it is surely cancelled.
      # @param loop [EventLoop]
      # @param seconds [Numeric]
      # @return [self]
      def arm(loop, seconds)
        @loop = loop
        @seconds = seconds
        self
      end

      # Runs the block under the armed deadline, and disarms it after. Only
      # the block is interruptible: an interrupt (Thread#raise, Thread#kill)
      # landing around it would skip the disarming and leave the timer or
      # the watch to raise Expired later, into the caller's code. The rescue
      # also covers the disarming: an Expired that lands after the block
      # returned (a watch's raise on its way) still becomes the deadline's
      # error here.
      # @yieldreturn [Object]
      # @return [Object] the block's value
      # @raise [Exception] the deadline's error when it expired in the block
      def run(&block)
        Thread.handle_interrupt(Masks::UNINTERRUPTED) do
          @timer = @loop.add_timer(@seconds, self, nil)
          @watch&.start
          # not &block: handle_interrupt yields an argument, which a lambda refuses
          Thread.handle_interrupt(Masks::INTERRUPTIBLE) { block.call }
        ensure
          disarm
        end
      rescue Expired => e
        raise unless e.deadline.equal?(self)

        raise @exception_class, @message, e.backtrace
      end

      # Disarms the deadline: removes the timer for real if it has not
      # fired, and stops the watch.
      # @return [Boolean] whether the watch raised in the thread (that raise
      #   may still be on its way)
      def cancel
        @due = false
        if (timer = @timer)
          @timer = nil
          @loop.cancel_timer(timer)
        end
        unwatch if @watch
      end

      # Called by the loop when the time is up. The raise waits in the run
      # queue: a fiber run from inside the loop's timer round could finish
      # the loop's work while the loop goes on to sleep.
      # @return [void]
      private def __timeout__(_timer)
        return unless @timer

        @timer = nil
        @due = true
        @loop.push(self)
      end

      # Run by the loop: raises in the timed fiber, unless the block finished
      # meanwhile.
      # @return [void]
      private def __run__
        return unless @due

        @due = false
        return if @watch && !@watch.claim # the watch raised already

        # The loop may run in the timed fiber itself (a fiber outside any
        # concurrent proc runs the loop while it waits): raise right here.
        error = @deferred ? Expired.new(self) : @exception_class.new(@message)
        raise error if @fiber.equal?(Fiber.current)

        @fiber.raise(error) if @fiber.alive?
      end

      # A raise is never run by another proc's fiber: a proc fiber that just
      # finished asks the run queue's next entry whether it takes it over
      # (EventLoop#chain), and a deadline queued right behind a start is that
      # entry, as it often is under load (Timeout.timeout inside Heddle.run).
      # @param _worker [Object]
      # @return [false]
      private def __chain_into__(_worker)
        false
      end

      private

      # Disarms for #run. A watch's raise must not land in the middle of the
      # cancel; one that was sent is taken before #run's rescue is left,
      # even under a caller's Thread.handle_interrupt mask, so that it
      # cannot land in the caller's code after the block. (Not by asking
      # Thread.pending_interrupt?(Expired): given a class, Ruby 3.1 crashes.)
      def disarm
        return cancel unless @watch

        raised = Thread.handle_interrupt(Expired => :never) { cancel }
        Thread.handle_interrupt(Expired => :immediate) { Thread.pass } if raised
      end

      # Stops the watch. @return [Boolean] whether it raised
      def unwatch
        watch = @watch
        @watch = nil
        watch.cancel
      end
    end
  end
end
