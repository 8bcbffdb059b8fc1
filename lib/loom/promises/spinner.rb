# frozen_string_literal: true

module Loom
  module Promises
    # What a thread does before it parks on a pending promise: it passes the
    # GVL ({Thread.pass}) a few times, re-checking the promise after each.
    #
    # Why: under the GVL, the thread that will fulfil the promise is often
    # runnable already (woken by the very job the waiter just handed it) and
    # only waiting for the GVL. Passing it over lets that thread run now, and
    # the waiter finds the promise resolved when the GVL comes back: no
    # futex sleep, no wake-up of a parked thread, no second GVL hand-over
    # for the woken thread (the cost of a Thread::Queue hand-off). Measured
    # in the `promises` bench suite, rows "Loom::Promise, threads, fresh" and
    # "reuse": 2-3x faster than a Thread::Queue per job with the spin in a
    # fresh process, on par without it (numbers in docs/promises.md).
    #
    # Bounded: after {PASSES} turns the thread parks as before, so a promise
    # resolved much later costs at most that many passes (each a
    # sched_yield, ~1 µs, when no other thread wants the GVL). Fibers under
    # a Fiber scheduler skip it: their scheduler runs the other fibers
    # while they wait, and a pass would stall all of them.
    module Spinner
      # Turns of the GVL before parking. 3 to 200 were all 2-4x faster than
      # parking at once in A/B runs (docs/promises.md); more turns ride out
      # a resolver the OS scheduled late, fewer waste less when the value is
      # far off. 1.2 turns were used per promise in the bench suite.
      PASSES = 16

      # Passes the GVL until the promise is resolved, {PASSES} times at most,
      # and never past the deadline.
      # @param promise [Loom::Promise] the promise waited for
      # @param deadline [Float, nil] monotonic-clock seconds; nil for none
      # @return [Boolean] whether the promise is resolved
      # @api private
      # @example
      #   Loom::Promises::Spinner.resolved?(Loom::Promise.fulfilled(1), nil) # => true
      def self.resolved?(promise, deadline)
        return false if Fiber.scheduler && !Fiber.blocking?

        passes = PASSES
        while promise.pending?
          return false if (passes -= 1).negative? || (deadline && Waiting.now >= deadline)

          Thread.pass
        end
        true
      end
    end
  end
end
