# frozen_string_literal: true

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
    include Promises::Waiting
    include Promises::Chaining
    extend Promises::Combinators

    PENDING = :pending
    FULFILLED = :fulfilled
    REJECTED = :rejected
    # One lock for all promises: it guards only the hand-over of the state and
    # the waiter list (never a wait or a callback), so contention is rare, and
    # a promise costs no Mutex of its own.
    LOCK = Thread::Mutex.new
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
        unless @state.equal?(PENDING)
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
      @state.equal?(PENDING)
    end

    # @return [Boolean] whether the promise is fulfilled or rejected
    # @example
    #   Heddle::Promise.rejected(IOError).resolved? # => true
    def resolved?
      !@state.equal?(PENDING)
    end

    # @return [Boolean] whether the promise has a value
    # @example
    #   Heddle::Promise.fulfilled(nil).fulfilled? # => true
    def fulfilled?
      @state.equal?(FULFILLED)
    end

    # @return [Boolean] whether the promise has an error
    # @example
    #   Heddle::Promise.rejected(IOError).rejected? # => true
    def rejected?
      @state.equal?(REJECTED)
    end

    # @return [Exception, nil] the rejection error, without waiting or raising
    # @example
    #   Heddle::Promise.rejected(IOError.new("down")).reason.message # => "down"
    def reason
      @state.equal?(REJECTED) ? @value : nil
    end

    # Waits until the promise is resolved or timeout seconds pass.
    # @param timeout [Numeric, nil] seconds; nil waits for ever
    # @return [Boolean] true when resolved (fulfilled or rejected), false on timeout
    # @raise [ArgumentError] if timeout is negative or not a number
    # @example
    #   Heddle::Promise.new.wait(0.01) # => false
    def wait(timeout = nil)
      return true unless @state.equal?(PENDING)

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
      await(timeout) if @state.equal?(PENDING)
      raise @value if @state.equal?(REJECTED)

      @state.equal?(FULFILLED) ? @value : nil
    end

    # Waits for the value; a timeout is an error too.
    # @param timeout [Numeric, nil] seconds; nil waits for ever
    # @return [Object] the value
    # @raise [TimeoutError] if still pending after timeout seconds
    # @raise [Exception] the rejection error, in every waiter
    # @example
    #   Heddle::Promise.fulfilled(3).value!(1) # => 3
    def value!(timeout = nil)
      await(timeout) if @state.equal?(PENDING)
      raise @value if @state.equal?(REJECTED)
      return @value if @state.equal?(FULFILLED)

      raise TimeoutError, "promise still pending after #{timeout} s; wait longer or check who resolves it"
    end

    # @return [String] the state and, once resolved, the value or error
    # @example
    #   Heddle::Promise.fulfilled(1).inspect # => "#<Heddle::Promise fulfilled 1>"
    def inspect
      detail = @state.equal?(PENDING) ? "" : " #{@value.inspect[0, 60]}"
      "#<#{self.class.name} #{@state}#{detail}>"
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
        if !@state.equal?(PENDING)
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
        return false unless @state.equal?(PENDING)

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
        next false unless @state.equal?(PENDING)

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
  end
end
