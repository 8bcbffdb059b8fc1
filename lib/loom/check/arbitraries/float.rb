# frozen_string_literal: true

module Loom
  module Check
    module Arbitraries
      # Floats: edge values (0.0, -0.0, ±1.0, ±Infinity, ±Float::MAX,
      # Float::MIN, Float::EPSILON, NaN when asked) one draw in EDGE_ODDS,
      # else a random sign and magnitude over many orders of magnitude.
      # Shrinks toward 0.0 (or the bound nearest it): first to integral values,
      # then as integers.
      class Float < Arbitrary
        EDGE_ODDS = 6
        EDGES = [0.0, -0.0, 1.0, -1.0, ::Float::INFINITY, -::Float::INFINITY, ::Float::MAX, -::Float::MAX,
                 ::Float::MIN, ::Float::EPSILON].freeze
        # Integral floats beyond 2**53 are not exact integers; shrink them only to the target.
        EXACT = 2**53

        # @param min [Numeric] lower bound (default -Infinity)
        # @param max [Numeric] upper bound (default Infinity)
        # @param nan [Boolean] whether NaN may be generated
        # @raise [ArgumentError] when min > max
        def initialize(min: -::Float::INFINITY, max: ::Float::INFINITY, nan: false)
          super()
          raise ArgumentError, "float needs min <= max, got min: #{min.inspect}, max: #{max.inspect}" unless min <= max

          @min = min.to_f
          @max = max.to_f
          @target = 0.0.clamp(@min, @max)
          @edges = EDGES.grep(@min..@max) + [@min, @max].select(&:finite?)
          @edges << ::Float::NAN if nan
        end

        # @see Arbitrary#generate
        def generate(rng, _size)
          return @edges[rng.rand(@edges.size)] if rng.rand(EDGE_ODDS).zero?

          value = rng.rand * (10.0**rng.rand(-6..12)) * (rng.rand(2).zero? ? 1 : -1)
          value.clamp(@min, @max)
        end

        # @see Arbitrary#shrink
        def shrink(raw)
          return shrink_to_target(raw) unless raw.finite? && raw.abs < EXACT

          whole = raw.truncate
          return [@target, whole.to_f].uniq.select { |v| fits?(v, raw) } unless whole == raw

          IntegerShrink.candidates(whole, @target.truncate).map(&:to_f).select { |v| fits?(v, raw) }
        end

        # @return [String]
        def inspect = "float(#{@min}..#{@max})"

        private

        def shrink_to_target(raw) = raw.eql?(@target) ? EMPTY : [@target]

        def fits?(value, raw) = value.between?(@min, @max) && !value.eql?(raw)
      end
    end
  end
end
