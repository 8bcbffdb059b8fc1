# frozen_string_literal: true

module Loom
  module Check
    module Arbitraries
      # Integers in min..max, one draw in EDGE_ODDS taken from the edges
      # (0, 1, -1, min, max and their neighbours); shrinks toward 0, or toward
      # the bound nearest to 0 when 0 is out of range.
      class Integer < Arbitrary
        # One draw in 8 is an edge value: cheap insurance against off-by-one bugs.
        EDGE_ODDS = 8

        attr_reader :min, :max

        # @param min [::Integer]
        # @param max [::Integer]
        # @raise [ArgumentError] when min > max or either is not an Integer
        def initialize(min, max)
          super()
          unless min.is_a?(::Integer) && max.is_a?(::Integer) && min <= max
            raise ArgumentError, "integer needs Integer bounds with min <= max, " \
                                 "got min: #{min.inspect}, max: #{max.inspect}"
          end

          @min = min
          @max = max
          @range = min..max
          @target = 0.clamp(min, max)
          @edges = [0, 1, -1, min, max, min + 1, max - 1].select { |v| @range.cover?(v) }.uniq.freeze
        end

        # @see Arbitrary#generate
        def generate(rng, _size)
          return @edges[rng.rand(@edges.size)] if rng.rand(EDGE_ODDS).zero?

          rng.rand(@range)
        end

        # @see Arbitrary#shrink
        def shrink(raw) = IntegerShrink.candidates(raw, @target)

        # @see Arbitrary#summable?
        def summable? = true

        # @param value [::Integer]
        # @return [Boolean] whether value is within min..max
        def cover?(value) = @range.cover?(value)

        # @return [String]
        def inspect = "integer(#{@min}..#{@max})"
      end
    end
  end
end
