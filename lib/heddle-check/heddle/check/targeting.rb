# frozen_string_literal: true

module Heddle
  module Check
    # Steers generation towards higher scores of `target:`, as Hypothesis's
    # target(): the best-scoring cases' choices are kept, and once a quarter
    # of the runs were drawn afresh, most later cases are one of them with a
    # few choices nudged (replayed through {Choices}, so every arbitrary,
    # `map`, `filter` and `bind` included, builds a valid value from them).
    # A nudged case that scores higher takes the place of the worst kept.
    #
    # Its Random is its own, seeded from the check's seed: a check with a
    # target is as reproducible as one without.
    class Targeting
      # Best cases kept to nudge.
      KEEP = 4
      # Share of the runs drawn afresh before nudging starts.
      EXPLORE = 0.25
      # Chance that a case after that is a nudged one (the rest stay fresh, to keep exploring).
      NUDGED = 0.75
      # Most choices nudged in one case.
      NUDGES = 3
      # Longest run of choices copied by one nudge.
      BLOCK = 4
      # Mixed into the check's seed so that this Random's stream is not the check's.
      SALT = 0x7a5d_3c1b

      # @param seed [Integer] the check's seed
      # @param runs [Integer] the check's runs
      def initialize(seed, runs)
        @rng = Random.new(seed ^ SALT)
        @start = (runs * EXPLORE).ceil
        @kept = [] # [score, values, size], best first
      end

      # @param index [Integer] the run about to be drawn
      # @return [(Array<Numeric>, Integer), nil] nudged choices and their size, or nil to draw afresh
      def nudged(index)
        return nil if index < @start || @kept.empty? || @rng.rand >= NUDGED

        _score, values, size = @kept[@rng.rand(2).zero? ? 0 : @rng.rand(@kept.size)]
        [nudge(values), size]
      end

      # Keeps a case among the best when it scores higher than the worst kept.
      # @param score [Numeric] @param values [Array<Numeric>] its choices (kept as given: pass a copy)
      # @param size [Integer] the size it was drawn at
      # @return [void]
      def offer(score, values, size)
        return if @kept.size >= KEEP && score <= @kept.last[0]
        return if @kept.any? { |_, v, _| v == values }

        @kept << [score, values, size]
        @kept.sort_by! { |s, _, _| -s }
        @kept.pop if @kept.size > KEEP
      end

      private

      def nudge(values)
        out = values.dup
        return out if out.empty?
        return duplicate_block(out) if @rng.rand(3).zero?

        other = @kept[@rng.rand(@kept.size)][1]
        (1 + @rng.rand(NUDGES)).times do
          i = @rng.rand(out.size)
          out[i] = out[i].is_a?(::Integer) ? nudge_integer(out[i], other[i]) : nudge_float(out[i])
        end
        out
      end

      # A step of a random scale up to the value's own (a power of two, so
      # that a case near its best is tuned finely and one far from it moves
      # far), or of the distance to the same choice of another kept case
      # (as differential evolution: the steps shrink as the best cases
      # close in), or by one, or a doubling; up more often than down
      # (targets are mostly sizes and magnitudes, which larger choices
      # make), and both ways so that a score that wants smaller ones climbs
      # too. A replay clamps what leaves the choice's range.
      def nudge_integer(value, other)
        step = @rng.rand(1..(1 << @rng.rand(value.abs.bit_length + 1)))
        case @rng.rand(8)
        when 0, 1 then value + step
        when 2 then value - step
        when 3 then value * 2
        when 4 then value + 1
        when 5 then value - 1
        else value + (other.is_a?(::Integer) ? ((other - value) * (@rng.rand - 0.5) * 2).round : 0)
        end
      end

      # A run of up to BLOCK choices copied in after itself: a collection's
      # element (its "another?" flag and its choices) becomes two, so that
      # a score that grows with a collection's length climbs too.
      def duplicate_block(values)
        start = @rng.rand(values.size)
        block = values[start, 1 + @rng.rand(BLOCK)]
        values.insert(start + block.size, *block)
      end

      def nudge_float(value)
        return 0.0 unless value.finite?

        @rng.rand(2).zero? ? value * (0.5 + (@rng.rand * 1.5)) : value + ((@rng.rand * 2) - 1)
      end
    end
  end
end
