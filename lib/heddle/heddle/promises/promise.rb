# frozen_string_literal: true

require_relative "../masked_lock"
require_relative "../masks"

module Heddle
  # A value that is not there yet: any thread or fiber may resolve it once
  # ({#fulfill} or {#reject}), and any number of threads and fibers may wait
  # for it ({#wait}, {#value}, {#value!}), each with an optional timeout.
  #
  # A thread waits by parking its own reusable {Promises::Parker}; a fiber in
  # heddle's loop suspends its evaluation so the other fibers keep running. A
  # rejected promise raises its error in every waiter of {#value}/{#value!}.
  #
  # The promise holds three instance variables (embedded in the object, so a
  # new promise is one allocation) and shares one process-wide lock whose
  # critical sections are a few assignments: promises are made and resolved
  # by the hundred thousand (see the promises benchmark).
  #
  # @example Hand a value from a thread to another
  #   promise = Heddle::Promise.new
  #   Thread.new { promise.fulfill(42) }
  #   promise.value(1) # => 42
  class Promise
    # The states are Symbols compared with ==, which Ruby answers without a
    # method call (equal? is one on 3.1): hot path, see the promises benchmark.
    PENDING = :pending
    FULFILLED = :fulfilled
    REJECTED = :rejected
    # One lock for all promises: it guards only the hand-over of the state and
    # the waiter list (never a wait or a callback), so contention is rare, and
    # a promise costs no Mutex of its own. Masked: see {MaskedLock}.
    LOCK = MaskedLock.new
    private_constant :LOCK

    # @param value [Object]
    # @return [Promise] a promise already fulfilled with value
    # @example
    #   Heddle::Promise.fulfilled(1).value # => 1
    def self.fulfilled(value)
      new.fulfill(value)
    end

    # @param error [Exception, Class<Exception>]
    # @return [Promise] a promise already rejected with error
    # @example
    #   Heddle::Promise.rejected(KeyError.new("nope")).rejected? # => true
    def self.rejected(error)
      new.reject(error)
    end

    # all and any: promises made of promises, resolved by callbacks on their
    # sources (no thread or fiber waits).
    class << self
      # @param promises [Array<Heddle::Promise>]
      # @return [Heddle::Promise] fulfilled with every value in input order once
      #   all are fulfilled, or rejected with the first rejection
      # @raise [TypeError] if promises is not Enumerable or an element is not a Heddle::Promise
      # @example
      #   Heddle::Promise.all([Heddle::Promise.fulfilled(1), Heddle::Promise.fulfilled(2)]).value # => [1, 2]
      def all(promises)
        promises = check_promises(promises, "all")
        result = new
        return result.fulfill([]) if promises.empty?

        left = promises.size
        lock = MaskedLock.new
        promises.each do |promise|
          promise.on_resolve do |source|
            next result.try_reject(source.reason) if source.rejected?

            result.try_fulfill(promises.map(&:peek)) if lock.synchronize { (left -= 1).zero? }
          end
        end
        result
      end

      # @param promises [Array<Heddle::Promise>] at least one
      # @return [Heddle::Promise] fulfilled with the first value to arrive, or
      #   rejected with {Heddle::Promise::AllRejectedError} if every one is rejected
      # @raise [ArgumentError] if promises is empty (nothing could fulfil it)
      # @raise [TypeError] if promises is not Enumerable or an element is not a Heddle::Promise
      # @example
      #   Heddle::Promise.any([Heddle::Promise.new, Heddle::Promise.fulfilled(:fast)]).value # => :fast
      def any(promises)
        promises = check_promises(promises, "any")
        raise ArgumentError, "Promise.any needs at least one promise; an empty list never fulfils" if promises.empty?

        result = new
        left = promises.size
        lock = MaskedLock.new
        promises.each do |promise|
          promise.on_resolve do |source|
            next result.try_fulfill(source.peek) if source.fulfilled?

            if lock.synchronize { (left -= 1).zero? }
              result.try_reject(Heddle::Promise::AllRejectedError.new(promises.map(&:reason)))
            end
          end
        end
        result
      end

      # A promise of a concurrent proc's result, for threads and fibers alike.
      # @param evaluation [Heddle::Proc::Evaluation]
      # @return [Heddle::Promise] fulfilled with the result, or rejected with the
      #   exception the evaluation concluded to
      # @raise [TypeError] if evaluation is not a concurrent proc's evaluation
      # @example
      #   Heddle::Promise.from(Heddle.concurrently { :done }).value(1) # => :done
      def from(evaluation)
        unless evaluation.is_a?(Heddle::Proc::Evaluation)
          raise TypeError, "Promise.from takes a Heddle::Proc::Evaluation (e.g. from Heddle.concurrently), " \
                           "got #{evaluation.inspect[0, 60]}"
        end

        promise = new
        Promises::EvaluationAwaiter.new(promise).attach(evaluation)
        promise
      end

      # @api private
      # @param timeout [Object] the timeout a caller passed
      # @return [Float, nil] the timeout in seconds
      # @raise [TypeError] unless nil or a real number
      # @raise [ArgumentError] for a negative number or NaN
      def check_timeout(timeout)
        return nil if nil.equal?(timeout) # wait for ever (a BasicObject has no nil?)

        Seconds.check!(timeout, "timeout", :non_negative, no_limit: "nil or Float::INFINITY")&.to_f
      end

      # @api private
      # @return [Heddle::Evaluation, nil] the evaluation to suspend when the
      #   caller runs in heddle's loop, or nil when it should park its fiber
      def loop_evaluation
        evaluation = Thread.current[Heddle::Evaluation::FIBER_KEY]&.__send__(:__evaluation__) or return nil
        return evaluation unless evaluation.instance_of?(Heddle::Evaluation)

        loop_busy?(evaluation.__send__(:__loop__)) ? evaluation : nil
      end

      # A root fiber runs its loop while it waits only when the loop has
      # something to run: otherwise parking the thread is cheaper.
      # @api private
      # @return [Boolean]
      def loop_busy?(loop)
        !loop.idle? || loop.live.positive? || loop.timer_count.positive? || !loop.io.empty?
      end

      # @api private
      # @return [Float] seconds on the monotonic clock
      def now
        Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end

      private

      def check_promises(promises, name)
        unless promises.is_a?(Enumerable)
          raise TypeError, "Promise.#{name} takes a list (Enumerable) of Heddle::Promise objects, " \
                           "got #{promises.inspect[0, 60]}"
        end

        promises = promises.to_a
        bad = promises.find { |p| !p.is_a?(Heddle::Promise) }
        return promises unless bad

        raise TypeError, "Promise.#{name} takes Heddle::Promise objects, got #{bad.inspect[0, 60]}; " \
                         "wrap plain values with Heddle::Promise.fulfilled"
      end
    end

    def initialize
      @state = PENDING
      @value = nil
      @waiters = nil # nil, one waiter, or an Array of them: most promises have one
    end

    # Fulfills the promise and wakes every waiter. Callable from any thread or fiber.
    # @param value [Object]
    # @return [self]
    # @raise [AlreadyResolvedError] if the promise is already resolved
    # @example
    #   Heddle::Promise.new.fulfill(:ok).value # => :ok
    def fulfill(value = nil)
      return self if resolve(FULFILLED, value)

      raise AlreadyResolvedError, already_resolved_message("fulfill(#{value.inspect[0, 60]})")
    end

    # Rejects the promise: every waiter of {#value} and {#value!} raises error.
    # @param error [Exception, Class<Exception>] an exception or an exception class
    # @return [self]
    # @raise [AlreadyResolvedError] if the promise is already resolved
    # @raise [TypeError] if error is not an exception
    # @example
    #   promise = Heddle::Promise.new.reject(ArgumentError.new("bad"))
    #   promise.value rescue $!.message # => "bad"
    def reject(error)
      error = self.class.exception_for(error)
      return self if resolve(REJECTED, error)

      raise AlreadyResolvedError, already_resolved_message("reject(#{error.inspect[0, 60]})")
    end

    # Like {#fulfill}, but returns false instead of raising when already resolved.
    # @param value [Object]
    # @return [Boolean] whether this call resolved the promise
    # @example
    #   promise = Heddle::Promise.new
    #   promise.try_fulfill(1) # => true
    #   promise.try_fulfill(2) # => false
    def try_fulfill(value = nil)
      resolve(FULFILLED, value)
    end

    # Like {#reject}, but returns false instead of raising when already resolved.
    # @param error [Exception, Class<Exception>]
    # @return [Boolean] whether this call resolved the promise
    # @example
    #   Heddle::Promise.fulfilled(1).try_reject(IOError) # => false
    def try_reject(error)
      resolve(REJECTED, self.class.exception_for(error))
    end

    # Makes a resolved promise pending again, to reuse it for the next value.
    # Only reset when no waiter still has to see the old value.
    # @return [self]
    # @example
    #   promise = Heddle::Promise.fulfilled(1)
    #   promise.reset.pending? # => true
    def reset
      LOCK.synchronize do
        unless @state == PENDING
          @state = PENDING
          @value = nil
        end
      end
      self
    end

    # @return [Symbol] :pending, :fulfilled or :rejected
    attr_reader :state

    # @return [Boolean] whether the promise is still waiting for a value
    # @example
    #   Heddle::Promise.new.pending? # => true
    def pending?
      @state == PENDING
    end

    # @return [Boolean] whether the promise is fulfilled or rejected
    # @example
    #   Heddle::Promise.rejected(IOError).resolved? # => true
    def resolved?
      @state != PENDING
    end

    # @return [Boolean] whether the promise has a value
    # @example
    #   Heddle::Promise.fulfilled(nil).fulfilled? # => true
    def fulfilled?
      @state == FULFILLED
    end

    # @return [Boolean] whether the promise has an error
    # @example
    #   Heddle::Promise.rejected(IOError).rejected? # => true
    def rejected?
      @state == REJECTED
    end

    # @return [Exception, nil] the rejection error, without waiting or raising
    # @example
    #   Heddle::Promise.rejected(IOError.new("down")).reason.message # => "down"
    def reason
      @state == REJECTED ? @value : nil
    end

    # Waits until the promise is resolved or timeout seconds pass.
    # @param timeout [Numeric, nil] seconds; nil waits for ever
    # @return [Boolean] true when resolved (fulfilled or rejected), false on timeout
    # @raise [ArgumentError] if timeout is negative or not a number
    # @example
    #   Heddle::Promise.new.wait(0.01) # => false
    def wait(timeout = nil)
      return true unless @state == PENDING

      await(timeout)
    end

    # Waits for the value.
    # @param timeout [Numeric, nil] seconds; nil waits for ever
    # @return [Object, nil] the value, or nil on timeout
    # @raise [Exception] the rejection error, in every waiter
    # @example
    #   promise = Heddle::Promise.new
    #   Thread.new { promise.fulfill(:done) }
    #   promise.value(1) # => :done
    def value(timeout = nil)
      await(timeout) if @state == PENDING
      raise @value if @state == REJECTED

      @state == FULFILLED ? @value : nil
    end

    # Waits for the value; a timeout is an error too.
    # @param timeout [Numeric, nil] seconds; nil waits for ever
    # @return [Object] the value
    # @raise [TimeoutError] if still pending after timeout seconds
    # @raise [Exception] the rejection error, in every waiter
    # @example
    #   Heddle::Promise.fulfilled(3).value!(1) # => 3
    def value!(timeout = nil)
      await(timeout) if @state == PENDING
      raise @value if @state == REJECTED
      return @value if @state == FULFILLED

      raise TimeoutError, "promise still pending after #{timeout} s; wait longer or check who resolves it"
    end

    # @return [String] the state and, once resolved, the value or error
    # @example
    #   Heddle::Promise.fulfilled(1).inspect # => "#<Heddle::Promise fulfilled 1>"
    def inspect
      detail = @state == PENDING ? "" : " #{@value.inspect[0, 60]}"
      "#<#{self.class.name} #{@state}#{detail}>"
    end

    # --- callbacks and chaining: blocks run in the thread or fiber that
    # resolves the promise (or at once, in the caller, when it is already
    # resolved), so keep them short; an error a block raises rejects the
    # promise it returns instead of reaching the resolver ---

    # Calls the block with this promise once it is resolved.
    # @yieldparam promise [Heddle::Promise] this promise, resolved
    # @return [self]
    # @raise [ArgumentError] without a block
    # @example
    #   Heddle::Promise.fulfilled(2).on_resolve { |p| puts p.value }
    def on_resolve(&block)
      raise ArgumentError, "on_resolve needs a block to call with the resolved promise" unless block

      callback = Promises::BlockWaiter.new(self, block)
      callback.resume! unless register(callback)
      self
    end

    # A promise of the block's result on this promise's value; a rejection
    # passes through untouched.
    # @yieldparam value [Object] this promise's value
    # @return [Heddle::Promise] fulfilled with the block's result, or rejected
    #   with this promise's error or the error the block raised
    # @raise [ArgumentError] without a block
    # @example
    #   Heddle::Promise.fulfilled(2).then { |v| v * 10 }.value # => 20
    def then(&block)
      raise ArgumentError, "then needs a block mapping the value" unless block

      chain { |source, child| source.fulfilled? ? child.__send__(:settle) { block.call(source.peek) } : nil }
    end

    # A promise of the block's result on this promise's error; a fulfilled
    # value passes through untouched.
    # @param classes [Array<Class>] only these errors (default: StandardError)
    # @yieldparam error [Exception] this promise's error
    # @return [Heddle::Promise]
    # @raise [ArgumentError] without a block
    # @raise [TypeError] if a class is not a class or module
    # @example
    #   Heddle::Promise.rejected(KeyError).rescue { |e| e.class.name }.value # => "KeyError"
    def rescue(*classes, &block)
      raise ArgumentError, "rescue needs a block mapping the error" unless block

      check_rescue_classes(classes)

      classes = [StandardError] if classes.empty?
      chain do |source, child|
        error = source.reason
        classes.any? { |c| error.is_a?(c) } ? child.__send__(:settle) { block.call(error) } : nil
      end
    end

    # @return [Object, nil] the value or error as it is now, without waiting
    #   or raising (nil while pending)
    def peek
      pending? ? nil : @value
    end

    # @api private
    # @return [Exception] error as an exception instance
    # @raise [TypeError] if error is neither an exception nor an exception class
    def self.exception_for(error)
      return error if error.is_a?(Exception)
      return error.new if error.is_a?(Class) && error <= Exception

      raise TypeError, "reject needs an Exception (or an Exception class), got #{error.inspect[0, 60]}; " \
                       "to resolve with a plain value use fulfill"
    end

    private

    # The one place a promise changes from pending: state and waiters swap
    # under the lock; the waiters are woken after it is released. With no
    # waiter, the swap is the whole resolution and nothing can be left half
    # done. With waiters it runs with asynchronous interrupts (Thread#raise,
    # Thread#kill, a timeout) held back: one landing between the swap and
    # the wake would leave the promise resolved and its waiters asleep for
    # good. The unlocked read of @waiters only picks the path; each path
    # decides under the lock. Hot path: see the promises benchmark.
    def resolve(state, value)
      return Thread.handle_interrupt(Masks::UNINTERRUPTED) { resolve_and_wake(state, value) } unless @waiters.nil?

      outcome = LOCK.synchronize do
        if @state != PENDING
          false
        elsif @waiters.nil?
          @value = value
          @state = state
          true
        end
      end
      return outcome unless outcome.nil?

      Thread.handle_interrupt(Masks::UNINTERRUPTED) { resolve_and_wake(state, value) }
    end

    # {#resolve} with waiters, interrupts held back (so lock/unlock need no
    # synchronize: nothing can land between them).
    def resolve_and_wake(state, value)
      LOCK.lock
      begin
        return false unless @state == PENDING

        @value = value
        @state = state
        waiters = @waiters
        @waiters = nil
      ensure
        LOCK.unlock
      end
      wake(waiters) if waiters
      true
    end

    def wake(waiters)
      return waiters.resume! unless waiters.is_a?(Array)

      errors = waiters.filter_map do |waiter|
        waiter.resume!
        nil
      rescue Exception => e # rubocop:disable Lint/RescueException -- every waiter must be woken first
        e
      end
      raise errors.first unless errors.empty?
    end

    # Mutex#synchronize, not lock/unlock: an interrupt landing between
    # Mutex#lock and the begin of its ensure would keep the process-wide lock
    # held for good; synchronize sets up the unlock in C.
    # @return [Boolean] false (nothing registered) if already resolved
    def register(waiter)
      LOCK.synchronize do
        next false unless @state == PENDING

        current = @waiters
        @waiters = if current.nil?
                     waiter
                   elsif current.is_a?(Array)
                     current << waiter
                   else
                     [current, waiter]
                   end
        true
      end
    end

    def unregister(waiter)
      LOCK.synchronize do
        current = @waiters
        if current.equal?(waiter)
          @waiters = nil
        elsif current.is_a?(Array)
          current.delete_if { |w| w.equal?(waiter) }
        end
      end
    end

    def already_resolved_message(call)
      "#{call} on a promise already #{@state} with #{@value.inspect[0, 60]}: a promise resolves once; " \
        "call #reset first to reuse it, or use try_fulfill/try_reject when losing the race is expected"
    end

    # Checked at the call: a bad class would otherwise raise later, in
    # whichever thread resolves this promise.
    # @param classes [Array] what was passed to {#rescue}
    # @return [void]
    # @raise [TypeError] unless each is a class or module
    def check_rescue_classes(classes)
      bad = classes.find { |c| !c.is_a?(Module) }
      raise TypeError, "rescue takes exception classes (or modules), got #{bad.inspect[0, 60]}" unless bad.nil?
    end

    # Registers a callback that either settles the child itself (returns
    # truthy) or passes this promise's outcome through.
    def chain
      child = self.class.new
      on_resolve do |source|
        next if yield(source, child)

        source.fulfilled? ? child.try_fulfill(source.peek) : child.try_reject(source.reason)
      end
      child
    end

    # Fulfills with the block's result or rejects with what it raises.
    # @return [true]
    def settle
      try_fulfill(yield)
      true
    rescue Exception => e # rubocop:disable Lint/RescueException -- the error belongs to the promise's waiters
      try_reject(e)
      true
    end

    # --- waiting, by who is waiting:
    #
    # 1. a fiber of heddle's loop (or a root fiber whose loop has work pending)
    #    suspends its evaluation with Heddle.await_resume!, so the thread keeps
    #    running the other fibers;
    # 2. anything else (a plain thread, a fiber under another Fiber scheduler)
    #    parks its fiber's reusable {Promises::Parker} (untimed) or
    #    {Promises::TimedParker} (after a GVL spin, {Promises::Spinner}, when
    #    {Promises::SpinTuner} measured that it pays).
    #
    # In each case the waiter registers a "waker" (something answering
    # `resume!`) on the promise, sleeps, and re-checks the promise when woken:
    # a wake-up is only a hint, so stale or spurious ones are harmless and a
    # resolution is never missed (registration and resolution share the lock).
    # ---

    # Hot path of every waiter (see the promises benchmark): one fiber-local
    # lookup decides between the loop and a thread's wait.
    # @return [Boolean] whether the promise is resolved
    def await(timeout)
      if timeout && (timeout = Promise.check_timeout(timeout))
        return !pending? if timeout.zero?

        deadline = Promise.now + timeout
      end
      if (evaluation = Promise.loop_evaluation)
        await_in_loop(evaluation, deadline)
      elsif Promises::Spinner.tuned?
        await_tuned(deadline)
      else
        Promises::Spinner.resolved?(self, deadline) || await_thread(deadline)
      end
    end

    # A thread's wait while {Spinner.passes} is :auto: spin first or park at
    # once, as {SpinTuner} chose (and its back-off after failed spins
    # allows), and tell it how long the wait took in the mode it began in
    # (only waits that ended resolved: a timeout's length says nothing of
    # the mode). Hot path of thread waiters (see the promises benchmark).
    def await_tuned(deadline)
      mode = Promises::SpinTuner.spinning
      started = Promise.now
      resolved = (Promises::SpinTuner.spin? && Promises::Spinner.spin_tuned(self, deadline)) || await_thread(deadline)
      Promises::SpinTuner.record(mode, Promise.now - started) if resolved
      resolved
    end

    # Parks the thread's (or fiber's) parker until resolved or the deadline.
    def await_thread(deadline)
      if deadline.nil? || Promises::Parker::TIMED
        await_parked(Promises::Parker.current, deadline)
      else
        await_timed(Promises::TimedParker.current, deadline)
      end
    end

    # Suspends the fiber's evaluation (see {FiberWaker}) until resolved.
    def await_in_loop(evaluation, deadline)
      waker = Promises::FiberWaker.current(evaluation).arm(evaluation)
      return true unless register(waker)

      if deadline
        await_in_loop_until(deadline, evaluation, waker)
      else
        await_in_loop_forever(evaluation, waker)
      end
    ensure
      waker&.disarm
      unregister(waker) if waker && @state == PENDING
    end

    # The evaluation's own wait, not Heddle.await_resume! (which finds the
    # evaluation again), and the state read in place: hot path of fibers
    # waiting on a thread (see the promises benchmark).
    def await_in_loop_forever(evaluation, waker)
      evaluation.__send__(:__await__, nil, Heddle::Evaluation::TIMEOUT)
      while @state == PENDING
        waker.arm(evaluation) # a stale wake-up disarmed it; this wait goes on
        evaluation.__send__(:__await__, nil, Heddle::Evaluation::TIMEOUT)
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
        remaining = deadline - Promise.now
        return false if remaining <= 0

        yield remaining
      end
      true
    end
  end
end
