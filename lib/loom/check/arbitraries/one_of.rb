# frozen_string_literal: true

module Loom
  module Check
    module Arbitraries
      # A choice among arbitraries (plain values become constants), optionally
      # weighted. The raw value is [choice, inner raw]; it shrinks first to an
      # earlier constant choice (earlier means simpler), then within its choice.
      class OneOf < Arbitrary
        # @param choices [Array<Arbitrary>]
        # @param weights [Array<Integer>, nil] one positive weight per choice (nil: equal)
        # @raise [ArgumentError] with no choices or bad weights
        def initialize(choices, weights = nil)
          super()
          raise ArgumentError, "one_of needs at least one choice, got none" if choices.empty?

          weights ||= ::Array.new(choices.size, 1)
          check_weights(weights)
          @choices = choices
          @cumulative = weights.each_with_object([]) { |w, acc| acc << ((acc.last || 0) + w) }
        end

        # @see Arbitrary#generate
        def generate(rng, size)
          pick = rng.rand(@cumulative.last)
          index = @cumulative.bsearch_index { |c| c > pick }
          [index, @choices[index].generate(rng, size)]
        end

        # @see Arbitrary#realize
        def realize(raw) = @choices[raw[0]].realize(raw[1])

        # @see Arbitrary#plain?
        def plain? = false

        # @see Arbitrary#shrink
        def shrink(raw)
          index, inner = raw
          earlier = (0...index).select { |i| @choices[i].is_a?(Constant) }.map { |i| [i, @choices[i].generate(nil, 0)] }
          Enumerator.new do |out|
            earlier.each { |c| out << c }
            @choices[index].shrink(inner).each { |c| out << [index, c] }
          end
        end

        # @return [::String]
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
