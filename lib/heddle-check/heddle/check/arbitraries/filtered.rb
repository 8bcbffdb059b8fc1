# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # Values of a source arbitrary that a predicate accepts. Generation gives
      # up after `max_attempts` rejections in a row (Pbt loops forever). Each
      # rejection lets the size grow by one (up to Sizing::MAX_SIZE), so that
      # on the first runs, whose size is 0, `array(x).filter { |a| a.size >= 3 }`
      # finds arrays instead of giving up on empty ones. Rejected attempts are
      # discarded spans of the choices, which the shrinker drops.
      class Filtered < Arbitrary
        # Rejections in a row before giving up: a filter that rejects 99% still passes.
        MAX_ATTEMPTS = 100

        # @param source [Arbitrary]
        # @param predicate [Proc]
        # @param max_attempts [Integer]
        def initialize(source, predicate, max_attempts)
          super()
          raise ArgumentError, "filter needs a block, e.g. .filter(&:even?)" unless predicate
          unless max_attempts.is_a?(::Integer) && max_attempts.positive?
            raise ArgumentError, "max_attempts must be a positive Integer, got #{max_attempts.inspect}"
          end

          @source = source
          @predicate = predicate
          @max_attempts = max_attempts
        end

        # @see Arbitrary#generate
        # @raise [FilterExhaustedError] after max_attempts rejections in a row
        def generate(choices, size)
          @max_attempts.times do |attempt|
            grown = attempt.clamp(size, [size, Sizing::MAX_SIZE].max)
            raw, kept = choices.attempt(self) do
              raw = @source.generate(choices, grown)
              [raw, @predicate.call(@source.realize(raw))]
            end
            return raw if kept
          end
          raise FilterExhaustedError, "filter on #{@source.inspect} rejected #{@max_attempts} values in a row; " \
                                      "loosen the predicate, or build valid values with map instead of filter"
        end

        # @see Arbitrary#realize
        def realize(raw) = @source.realize(raw)

        # @see Arbitrary#plain?
        def plain? = @source.plain?

        # @return [::String]
        def inspect = "#{@source.inspect}.filter"
      end
    end
  end
end
