# frozen_string_literal: true

module Loom
  module Promises
    # An opt-in bounded spin before a thread parks on a pending promise:
    # with {passes} > 0 it passes the GVL ({Thread.pass}) up to that many
    # times, re-checking the promise after each. Off (0) by default.
    #
    # Why it can help: under the GVL the thread that will fulfil the promise
    # is often runnable already (woken by the job the waiter just handed it)
    # and only lacks the GVL. Passing it over lets that thread run now, and
    # the waiter finds the promise resolved when the GVL comes back: no futex
    # sleep and no wake-up of a parked thread.
    #
    # Why it is off: it pays only when the hand-overs stay on one core.
    # Bench suite `promises`, rows "Loom::Promise, threads, fresh/reuse"
    # (docs/promises.md): with one core effectively free (the process pinned,
    # or the other core busy) 16 passes made the job 2-3x faster than a
    # Thread::Queue per job; on a quiet 2-core machine every pass became a
    # cross-core wake-up and the same job ran 1.7x *slower* (1 pass: 1.4x).
    # Turn it on for processes limited to one CPU (e.g. a container with a
    # 1-CPU quota) after measuring there.
    #
    # Fibers under a Fiber scheduler never spin: their scheduler runs the
    # other fibers while they wait, and a pass would stall all of them.
    module Spinner
      @passes = 0

      class << self
        # @return [Integer] turns of the GVL a waiting thread takes before it parks (0: none)
        attr_reader :passes

        # @param count [Integer] turns of the GVL before parking; 0 turns the spin off
        # @return [Integer] count
        # @raise [ArgumentError] unless a non-negative Integer
        # @example For a process that runs on one CPU
        #   Loom::Promises::Spinner.passes = 16
        def passes=(count)
          unless count.is_a?(Integer) && !count.negative?
            raise ArgumentError, "Spinner.passes must be an Integer >= 0 (0 turns the spin off), got #{count.inspect}"
          end

          @passes = count
        end
      end

      # Passes the GVL until the promise is resolved, {passes} times at most,
      # and never past the deadline.
      # @param promise [Loom::Promise] the promise waited for
      # @param deadline [Float, nil] monotonic-clock seconds; nil for none
      # @return [Boolean] whether the promise is resolved
      # @api private
      # @example
      #   Loom::Promises::Spinner.resolved?(Loom::Promise.fulfilled(1), nil) # => true
      def self.resolved?(promise, deadline)
        passes = @passes
        return !promise.pending? if passes.zero? || (Fiber.scheduler && !Fiber.blocking?)

        while promise.pending?
          return false if (passes -= 1).negative? || past?(deadline)

          Thread.pass
        end
        true
      end

      # @return [Boolean] whether the deadline (if any) has passed
      def self.past?(deadline)
        deadline ? Waiting.now >= deadline : false
      end
      private_class_method :past?
    end
  end
end
