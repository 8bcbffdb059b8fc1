# frozen_string_literal: true

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
      # Deferred deadlines only.
      # @param evaluation [Heddle::Evaluation] the timed fiber's evaluation
      # @param seconds [Numeric]
      # @return [self]
      def watch(evaluation, seconds)
        @watch = Watch.new(Thread.current, evaluation, Expired.new(self), seconds).start
        self
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

      # Runs the block under the armed deadline, and disarms it after.
      # @yieldreturn [Object]
      # @return [Object] the block's value
      # @raise [Exception] the deadline's error when it expired in the block
      def run
        yield
      rescue Expired => e
        raise unless e.deadline.equal?(self)

        raise @exception_class, @message, e.backtrace
      ensure
        # A watch's raise must not land in the middle of the cancel.
        @watch ? Thread.handle_interrupt(Expired => :never) { cancel } : cancel
      end

      # Disarms the deadline: removes the timer for real if it has not
      # fired, and drops a raise that is queued but has not run yet.
      # @return [void]
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
      def __chain_into__(_worker)
        false
      end

      private

      # Stops the watch. Its raise may be queued on this thread and not yet
      # delivered (the block ended just as it fired): taken here, so it
      # cannot land in the caller's code after the block.
      def unwatch
        watch = @watch
        @watch = nil
        return unless watch.cancel && Thread.pending_interrupt?(Expired)

        begin
          Thread.handle_interrupt(Expired => :immediate) { Thread.pass }
        rescue Expired => e
          raise unless e.deadline.equal?(self) # an outer deadline's: it stands
        end
      end
    end
  end
end
