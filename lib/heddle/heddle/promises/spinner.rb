# frozen_string_literal: true

require_relative "spin_tuner"

module Heddle
  module Promises
    # A bounded spin on the GVL before a thread parks on a pending promise:
    # it passes the GVL (`Thread.pass`) up to a number of times, re-checking
    # the promise after each. By default (`passes == :auto`) {SpinTuner}
    # decides from measured waits whether to spin ({AUTO_PASSES} passes) or to
    # park at once; an Integer fixes the passes (0: never spin).
    #
    # Why it can help: under the GVL the thread that will fulfil the promise
    # is often runnable already (woken by the job the waiter just handed it)
    # and only lacks the GVL. Passing it over lets that thread run now, and
    # the waiter finds the promise resolved when the GVL comes back: no futex
    # sleep and no wake-up of a parked thread.
    #
    # Why it is measured rather than always on: it pays only when the
    # hand-overs stay on one core (the process pinned, or the other cores
    # busy). On a quiet machine of several cores every pass becomes a cross-core
    # wake-up and spinning is *slower* than parking; and an idle thread that
    # holds Ruby 3.1's signal fd (the first thread to sleep while it is free
    # takes it: Timeout's, in `heddle bench`, or one in Queue#pop) makes it
    # slower even on one core (docs/promises.md).
    #
    # Fibers under a Fiber scheduler never spin: their scheduler runs the
    # other fibers while they wait, and a pass would stall all of them.
    module Spinner
      # Passes per spin when {SpinTuner} chooses to spin: a resolved wait
      # needs little more than one on average, and more passes gained
      # nothing; the cap bounds what a failed spin costs when many threads
      # wait.
      AUTO_PASSES = 8
      @passes = :auto

      class << self
        # @return [Integer, Symbol] turns of the GVL a waiting thread takes
        #   before it parks (0: none), or :auto (the default: {SpinTuner} decides)
        attr_reader :passes

        # @param count [Integer, Symbol] turns of the GVL before parking; 0
        #   turns the spin off; :auto lets {SpinTuner} choose from measured waits
        # @return [Integer, Symbol] count
        # @raise [ArgumentError] unless :auto or a non-negative Integer
        # @example For a process that runs on one CPU
        #   Heddle::Promises::Spinner.passes = 16
        def passes=(count)
          unless count.equal?(:auto) || (count.is_a?(Integer) && !count.negative?)
            raise ArgumentError, "Spinner.passes must be :auto or an Integer >= 0 (0 turns the spin off), " \
                                 "got #{count.inspect}"
          end

          SpinTuner.reset
          @passes = count
        end

        # @return [Boolean] whether the calling thread's waits are tuned by
        #   {SpinTuner} (:auto, and not a non-blocking fiber under a scheduler)
        # @api private
        def tuned?
          @passes.equal?(:auto) && !(Fiber.scheduler && !Fiber.blocking?)
        end
      end

      # Passes the GVL until the promise is resolved, {passes} times at most
      # (none while {passes} is :auto: {Heddle::Promise} asks {SpinTuner}
      # and calls {spin} itself), and never past the deadline.
      # @param promise [Heddle::Promise] the promise waited for
      # @param deadline [Float, nil] monotonic-clock seconds; nil for none
      # @return [Boolean] whether the promise is resolved
      # @api private
      # @example
      #   Heddle::Promises::Spinner.resolved?(Heddle::Promise.fulfilled(1), nil) # => true
      def self.resolved?(promise, deadline)
        passes = @passes
        return !promise.pending? if !passes.is_a?(Integer) || passes.zero? || (Fiber.scheduler && !Fiber.blocking?)

        spin(promise, deadline, passes)
      end

      # Passes the GVL until the promise is resolved, passes times at most,
      # never past the deadline.
      # @param promise [Heddle::Promise] @param deadline [Float, nil]
      # @param passes [Integer]
      # @return [Boolean] whether the promise is resolved
      # @api private
      def self.spin(promise, deadline, passes)
        while promise.pending?
          return false if (passes -= 1).negative? || past?(deadline)

          Thread.pass
        end
        true
      end

      # Like {spin} with {AUTO_PASSES}, for {SpinTuner}'s spinning mode: gives
      # up as soon as another thread's spin has failed ({SpinTuner.backing_off?}),
      # so a crowd of threads that begin long waits together stops relaying
      # the GVL after the first failure instead of after every thread's own
      # passes; and tells the tuner how the spin ended.
      # @param promise [Heddle::Promise] @param deadline [Float, nil]
      # @return [Boolean] whether the promise is resolved
      # @api private
      def self.spin_tuned(promise, deadline)
        passes = AUTO_PASSES
        while promise.pending?
          if (passes -= 1).negative? || SpinTuner.backing_off? || past?(deadline)
            SpinTuner.spun(false)
            return false
          end

          Thread.pass
        end
        SpinTuner.spun(true)
        true
      end

      # @return [Boolean] whether the deadline (if any) has passed
      def self.past?(deadline)
        deadline ? Promise.now >= deadline : false
      end
      private_class_method :past?
    end
  end
end
