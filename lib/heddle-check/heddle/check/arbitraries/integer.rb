# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # Integers in min..max, one choice each; shrinks toward 0, or toward
      # the bound nearest to 0 when 0 is out of range.
      #
      # Fresh draws are biased (out of 32): 4 take an edge (0, 1, -1, min,
      # max and their neighbours), 2 copy one of the last integers drawn for
      # the same value, 4 step 1 (half the time) to 4 away from one, the rest
      # are uniform. Copies and steps find bugs that need two equal or
      # adjacent numbers (a duplicate in a list, `a == b`, `(a - b).abs == 1`),
      # which uniform draws over a wide range almost never give.
      class Integer < Arbitrary
        # Out of 32 draws: below EDGES an edge, below COPIES a copy, below STEPS a step.
        EDGES = 4
        COPIES = 6
        STEPS = 10

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
        end

        # @return [::Integer] the value it shrinks toward
        attr_reader :target

        # @see Arbitrary#generate
        def generate(choices, _size)
          rng = choices.random
          return choices.integer(@min, @max, @target) unless rng && @min != @max

          choices.fresh_integer(fresh(rng, choices.recent))
        end

        # @api private
        # A fresh draw: an edge, a copy of or a step from a recent integer, or uniform.
        # @param rng [Random] @param recent [Array<::Integer>] integers drawn lately
        # @return [::Integer]
        def fresh(rng, recent)
          pick = rng.rand(32)
          return edges[rng.rand(edges.size)] if pick < EDGES

          if pick < STEPS && !recent.empty?
            value = recent[rng.rand(recent.size)]
            value += step(rng) if pick >= COPIES
            return value if @range.cover?(value)
          end
          rng.rand(@range)
        end

        # @param value [::Integer]
        # @return [Boolean] whether value is within min..max
        def cover?(value) = @range.cover?(value)

        # @see Arbitrary#distinct_values
        def distinct_values = @max - @min + 1

        # @return [String]
        def inspect = "integer(#{@min}..#{@max})"

        private

        # Built on first use: binds build integers per value, and replays never draw edges.
        def edges
          @edges ||= [0, 1, -1, @min, @max, @min + 1, @max - 1].select { |v| @range.cover?(v) }.uniq.freeze
        end

        def step(rng) = (rng.rand(2).zero? ? 1 : 2 + rng.rand(3)) * (rng.rand(2).zero? ? 1 : -1)
      end
    end
  end
end
