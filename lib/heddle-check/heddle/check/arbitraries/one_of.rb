# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # A choice among arbitraries (plain values become constants), optionally
      # weighted. The raw value is [choice, inner raw]. The branch is one
      # choice, the first branch the simplest; the whole draw is a span, so
      # the shrinker can move to an earlier branch, replace the draw by its
      # simplest form or by a draw of the same arbitrary nested inside it.
      class OneOf < Arbitrary
        # @param choices [Array<Arbitrary>]
        # @param weights [Array<Integer>, nil] one weight per choice, not all 0 (nil: equal)
        # @raise [ArgumentError] with no choices or bad weights
        def initialize(choices, weights = nil)
          super()
          raise ArgumentError, "one_of needs at least one choice, got none" if choices.empty?

          weights ||= ::Array.new(choices.size, 1)
          check_weights(weights)
          @choices = choices
          # Only branches of positive weight can be drawn, fresh or replayed.
          @drawable = (0...choices.size).select { |i| weights[i].positive? }
          @cumulative = @drawable.each_with_object([]) { |i, acc| acc << ((acc.last || 0) + weights[i]) }
        end

        # @see Arbitrary#generate
        def generate(choices, size)
          choices.span(self) do
            pick = choices.integer(0, @drawable.size - 1, 0) do |rng|
              next 0 if choices.leaves?

              point = rng.rand(@cumulative.last)
              @cumulative.bsearch_index { |c| c > point }
            end
            index = @drawable[pick]
            [index, @choices[index].generate(choices, size)]
          end
        end

        # @see Arbitrary#realize
        def realize(raw) = @choices[raw[0]].realize(raw[1])

        # @see Arbitrary#plain?
        def plain? = false

        # @return [String]
        def inspect = "one_of(#{@choices.map(&:inspect).join(', ')})"

        private

        def check_weights(weights)
          return if weights.all? { |w| w.is_a?(::Integer) && w >= 0 } && weights.sum.positive?

          raise ArgumentError, "frequency weights must be non-negative Integers, not all 0; got #{weights.inspect}"
        end
      end
    end
  end
end
