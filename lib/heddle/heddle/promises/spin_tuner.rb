# frozen_string_literal: true

module Heddle
  module Promises
    # Decides, for the whole process, whether thread waiters spin on the GVL
    # before they park ({Spinner} in its default `:auto` mode), by measuring
    # which of the two makes waits shorter *now*.
    #
    # Why measure instead of choosing once: the spin pays only when the
    # hand-overs of the GVL stay on one core (the other core busy, or the
    # process limited to one CPU); on two idle cores every pass becomes a
    # cross-core wake-up and spinning loses to parking (docs/promises.md).
    # Which case holds depends on the machine's load, which changes while a
    # process runs.
    #
    # How: waits are timed in windows of {WINDOW} waits, all in one mode. After
    # a few windows in its current mode the tuner tries the other mode for one
    # shorter window ({TRY_WINDOW} waits) and keeps it only if its mean wait
    # was shorter by {MARGIN}; each
    # losing try doubles the windows before the next (up to {MAX_EXPLORE}),
    # so a machine where one mode keeps winning pays for a bad window rarely.
    #
    # The counters are plain instance variables of this module, updated by
    # every waiting thread without a lock: under the GVL a lost update only
    # blurs one window's mean, and a wrong choice is corrected by the next try.
    module SpinTuner
      # Waits per measured window: long enough to average over the OS
      # scheduler's tick, short enough to follow the load.
      WINDOW = 512
      # Waits in a window that tries the other mode. Shorter than {WINDOW}
      # because a losing try is paid in full, while where the modes differ
      # enough to matter this many waits tell them apart; a try that wins by
      # luck is undone by the next try.
      TRY_WINDOW = 128
      # A tried mode must beat the current one's mean wait by this fraction.
      MARGIN = 0.1
      # Windows in the current mode before the first try of the other.
      MIN_EXPLORE = 4
      # At most this many windows between tries after repeated losses: the
      # load that decides the winner can change within a second, and a try of
      # the losing mode then slows one window in MAX_EXPLORE + 1.
      MAX_EXPLORE = 32
      # Waits that begin a window after a switch and are not counted: they
      # still feel the previous mode (threads parked or queued for the GVL).
      SETTLE = 64

      # Consecutive failed spins (ended still pending) counted at most; after
      # n of them the next 2**n waits park without spinning (at most 256).
      MAX_MISSES = 8

      class << self
        # @return [Boolean] whether waits spin now (the mode of this window)
        attr_reader :spinning

        # Whether a wait that begins now should spin: in the spinning mode,
        # unless recent spins failed. Why the back-off, on top of the timed
        # windows: a spin that ends unresolved is pure cost, and where many
        # threads wait long their spins burn CPU handing the GVL round; the
        # windows cannot see that, since spin and park make such waits
        # equally long. Where spins pay, a failed one is rare and costs one
        # parked wait.
        # @return [Boolean]
        # @example
        #   Heddle::Promises::SpinTuner.spin? # => true (a fresh tuner spins)
        def spin?
          return false unless @spinning
          return true unless @skip.positive?

          @skip -= 1
          false
        end

        # @return [Boolean] whether a spin failed lately and waits park without
        #   spinning now (a spin under way gives up at its next pass)
        # @api private
        def backing_off? = @skip.positive?

        # Counts the end of a spin.
        # @param resolved [Boolean] whether the promise was resolved by then
        # @return [void]
        # @api private
        def spun(resolved)
          if resolved
            @misses = 0
          else
            @misses = [@misses + 1, MAX_MISSES].min
            @skip = 1 << @misses
          end
        end

        # Forgets what was measured and starts over, spinning by default:
        # where the spin pays it gains more than it loses where it does not,
        # and the first try of parking comes after {MIN_EXPLORE} windows.
        # @param spinning [Boolean] the mode to start in
        # @return [void]
        # @example
        #   Heddle::Promises::SpinTuner.reset
        def reset(spinning: true)
          @spinning = spinning
          @misses = 0
          @skip = 0
          @window = WINDOW
          @count = -SETTLE
          @sum = 0.0
          @means = { true => nil, false => nil }
          @trying = false
          @windows = 0
          @explore = MIN_EXPLORE
        end

        # Counts one finished wait. Hot path of thread waiters (see the
        # promises benchmark).
        # @param spun [Boolean] the mode the wait ran in ({spinning} when it began)
        # @param seconds [Float] how long the wait took
        # @return [void]
        # @example
        #   Heddle::Promises::SpinTuner.record(false, 0.00002)
        def record(spun, seconds)
          return unless spun == @spinning # began in the previous window's mode

          return if (@count += 1) <= 0 # settling after a switch

          @sum += seconds
          close_window if @count >= @window
        end

        # @return [Hash{Boolean=>Float,nil}] the last mean wait, in seconds,
        #   with spinning (true) and parking (false); nil until measured
        # @example
        #   Heddle::Promises::SpinTuner.means # => {true=>nil, false=>nil}
        def means = @means.dup

        private

        def close_window
          mean = @sum / @count
          @count = 0
          @sum = 0.0
          @trying ? judge_try(mean) : count_window(mean)
        end

        # A window in the current mode (its mean smoothed with the previous
        # ones, against one window's noise): after @explore of them, try the other.
        def count_window(mean)
          previous = @means[@spinning]
          @means[@spinning] = previous ? (previous + mean) / 2 : mean
          return if (@windows += 1) < @explore

          @windows = 0
          switch(trying: true)
        end

        # The window of a try just closed: keep the tried mode if it won.
        def judge_try(mean)
          @means[@spinning] = mean
          previous = @means[!@spinning]
          if previous && mean < previous * (1 - MARGIN)
            @explore = MIN_EXPLORE
            @trying = false
          else
            @explore = [@explore * 2, MAX_EXPLORE].min
            switch(trying: false)
          end
        end

        def switch(trying:)
          @trying = trying
          @window = trying ? TRY_WINDOW : WINDOW
          @spinning = !@spinning
          @count = -SETTLE
        end
      end

      reset
    end
  end
end
