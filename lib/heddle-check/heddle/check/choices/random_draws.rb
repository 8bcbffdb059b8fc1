# frozen_string_literal: true

module Heddle
  module Check
    class Choices
      # The Random-like face of {Choices}: an arbitrary written against a
      # Random (`rand`, `rand(n)`, `rand(a..b)`, `rand(x.y)`, `bytes`) draws
      # recorded choices, which the shrinker then shrinks.
      module RandomDraws
        # Random-compatible draw, recorded: rand, rand(n), rand(a..b), rand(x.y).
        #
        # @example In a custom arbitrary
        #   def generate(rng, _size) = 1 + rng.rand(6)
        # @param limit [nil, Integer, Float, Range]
        # @return [Numeric]
        # @raise [ArgumentError] for another kind of limit
        def rand(limit = nil)
          case limit
          when nil then float(0.0, 1.0, 0.0, &:rand)
          when ::Integer then integer(0, limit - 1, 0) { |rng| rng.rand(limit) }
          when ::Float then float(0.0, limit, 0.0) { |rng| rng.rand(limit) }
          when Range then ranged(limit)
          else raise ArgumentError, "rand takes nil, an Integer, a Float or a Range, got #{limit.inspect}"
          end
        end

        # @param count [Integer] @return [String] random bytes, one choice each
        def bytes(count) = ::Array.new(count) { integer(0, 255, 0) }.pack("C*")

        private

        def ranged(range)
          low = range.begin
          high = range.exclude_end? && low.is_a?(::Integer) ? range.end - 1 : range.end
          return float(low.to_f, high.to_f, 0.0.clamp(low, high).to_f) { |rng| rng.rand(range) } if low.is_a?(::Float)

          integer(low, high, 0.clamp(low, high)) { |rng| rng.rand(range) }
        end
      end
    end
  end
end
