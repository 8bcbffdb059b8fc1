# frozen_string_literal: true

module Heddle
  module Promises
    # How {Heddle::Promise} waits, by who is waiting:
    #
    # 1. a fiber of heddle's loop (or a root fiber whose loop has work pending)
    #    suspends its evaluation with Heddle.await_resume!, so the thread keeps
    #    running the other fibers;
    # 2. anything else (a plain thread, a fiber under another Fiber scheduler)
    #    parks its fiber's reusable {Parker} (untimed) or {TimedParker}
    #    (after a GVL spin, {Spinner}, when {SpinTuner} measured that it pays).
    #
    # In each case the waiter registers a "waker" (something answering
    # `resume!`) on the promise, sleeps, and re-checks the promise when woken:
    # a wake-up is only a hint, so stale or spurious ones are harmless and a
    # resolution is never missed (registration and resolution share the lock).
    module Waiting
      # @api private
      # @param timeout [Object] the timeout a caller passed
      # @return [Float, nil] the timeout in seconds
      # @raise [TypeError] unless nil or a real number
      # @raise [ArgumentError] for a negative number or NaN
      def self.check_timeout(timeout)
        return nil if nil.equal?(timeout) # wait for ever (a BasicObject has no nil?)

        Seconds.check!(timeout, "timeout", :non_negative, no_limit: "nil or Float::INFINITY")&.to_f
      end

      # @api private
      # @return [Heddle::Evaluation, nil] the evaluation to suspend when the
      #   caller runs in heddle's loop, or nil when it should park its fiber
      def self.loop_evaluation
        evaluation = Thread.current[Heddle::Evaluation::FIBER_KEY]&.__send__(:__evaluation__) or return nil
        return evaluation unless evaluation.instance_of?(Heddle::Evaluation)

        loop_busy?(evaluation.__send__(:__loop__)) ? evaluation : nil
      end

      # A root fiber runs its loop while it waits only when the loop has
      # something to run: otherwise parking the thread is cheaper.
      # @api private
      # @return [Boolean]
      def self.loop_busy?(loop)
        !loop.idle? || loop.live.positive? || loop.timer_count.positive? || !loop.io.empty?
      end

      # @return [Float] seconds on the monotonic clock
      def self.now
        Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end

      private

      # Hot path of every waiter (see the promises benchmark): one fiber-local
      # lookup decides between the loop and a thread's wait.
      # @return [Boolean] whether the promise is resolved
      def await(timeout)
        if timeout && (timeout = Waiting.check_timeout(timeout))
          return !pending? if timeout.zero?

          deadline = Waiting.now + timeout
        end
        if (evaluation = Waiting.loop_evaluation)
          await_in_loop(evaluation, deadline)
        elsif Spinner.tuned?
          await_tuned(deadline)
        else
          Spinner.resolved?(self, deadline) || await_thread(deadline)
        end
      end

      # A thread's wait while {Spinner.passes} is :auto: spin first or park at
      # once, as {SpinTuner} chose (and its back-off after failed spins
      # allows), and tell it how long the wait took in the mode it began in
      # (only waits that ended resolved: a timeout's length says nothing of
      # the mode). Hot path of thread waiters (see the promises benchmark).
      def await_tuned(deadline)
        mode = SpinTuner.spinning
        started = Waiting.now
        resolved = (SpinTuner.spin? && Spinner.spin_tuned(self, deadline)) || await_thread(deadline)
        SpinTuner.record(mode, Waiting.now - started) if resolved
        resolved
      end

      # Parks the thread's (or fiber's) parker until resolved or the deadline.
      def await_thread(deadline)
        if deadline.nil? || Parker::TIMED
          await_parked(Parker.current, deadline)
        else
          await_timed(TimedParker.current, deadline)
        end
      end

      # Suspends the fiber's evaluation (see {FiberWaker}) until resolved.
      def await_in_loop(evaluation, deadline)
        waker = FiberWaker.current(evaluation).arm(evaluation)
        return true unless register(waker)

        if deadline
          await_in_loop_until(deadline, evaluation, waker)
        else
          await_in_loop_forever(evaluation, waker)
        end
      ensure
        waker&.disarm
        unregister(waker) if waker && pending?
      end

      def await_in_loop_forever(evaluation, waker)
        Heddle.await_resume!
        while pending?
          waker.arm(evaluation) # a stale wake-up disarmed it; this wait goes on
          Heddle.await_resume!
        end
        true
      end

      def await_in_loop_until(deadline, evaluation, waker)
        until_resolved_or(deadline) do |remaining|
          waker.arm(evaluation)
          Heddle.await_resume!(within: remaining, timeout_result: nil)
        end
      end

      def await_parked(parker, deadline)
        return true unless register(parker)
        # Ruby >= 3.2 (Parker::TIMED): a timed wait's answer is whether it
        # ended resolved, not that it ended.
        return until_resolved_or(deadline) { |remaining| parker.park(remaining) } if deadline

        parker.park while pending?
        true
      ensure
        unregister(parker) if pending?
      end

      def await_timed(parker, deadline)
        return true unless register(parker)

        until_resolved_or(deadline) { |remaining| parker.park(remaining) }
      ensure
        unregister(parker) if pending?
      end

      # Calls the block with the seconds left until the promise is resolved or
      # the deadline passes.
      # @return [Boolean] whether the promise is resolved
      def until_resolved_or(deadline)
        while pending?
          remaining = deadline - Waiting.now
          return false if remaining <= 0

          yield remaining
        end
        true
      end
    end
  end
end
