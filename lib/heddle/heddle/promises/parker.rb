# frozen_string_literal: true

module Heddle
  module Promises
    # How a thread (or a fiber outside heddle's loop) sleeps until a promise
    # wakes it, without a queue per promise: each fiber owns one Parker, made
    # on its first untimed wait and reused for every later one, and registers
    # it on the promise it waits for. The promise calls {#resume!}, which
    # pushes a token; {#park} pops one.
    #
    # A token can outlive its wait (the waiter was interrupted, or saw the
    # promise resolved before the token arrived). Waiters therefore park in a
    # loop that re-checks the promise, so a stale token costs one extra turn and
    # is never mistaken for a resolution.
    #
    # Per fiber, not per thread: under a Fiber scheduler (Async, heddle's) two
    # fibers of one thread may park at once, and each must get its own token.
    #
    # Hot path of the `promises` bench suite (thread waiters): a Thread::Queue
    # made once per fiber instead of one per promise.
    class Parker < Thread::Queue
      KEY = :__heddle_promise_parker
      private_constant :KEY

      # @return [Parker] the calling fiber's parker, made on first use
      def self.current
        Thread.current[KEY] ||= new
      end

      # Wakes the parked fiber (or the next {#park}). Thread-safe.
      # @param _value [Object] ignored: the waiter reads the promise itself
      # @return [void]
      def resume!(_value = nil)
        push(true)
      end

      # Whether {#park} can time out (Thread::Queue#pop(timeout:), Ruby >= 3.2);
      # on older Rubies timed waits use {TimedParker}.
      TIMED = Thread::Queue.instance_method(:pop).parameters.include?(%i[key timeout])

      # Sleeps until {#resume!} (or a stale token) arrives, or timeout seconds pass.
      # @param timeout [Numeric, nil] seconds; nil for ever (a number needs {TIMED})
      # @return [void]
      def park(timeout = nil)
        timeout ? pop(timeout: timeout) : pop
      end
    end
  end
end
