# frozen_string_literal: true

module Heddle
  module Check
    module Arbitraries
      # Arrays of values from one arbitrary. Without `max:` the length follows
      # the run's size (small first). One draw in EDGE_ODDS has the minimum
      # length (the empty array when allowed).
      #
      # Each element beyond `min` is preceded by an "another?" choice and
      # recorded as a span ({Choices#collection}), so the shrinker deletes
      # elements by deleting spans, joins neighbouring inner arrays by
      # deleting the "no more" of one and the "another?" of the next, and
      # reorders elements by swapping spans.
      class Array < Arbitrary
        EDGE_ODDS = 8
        # Attempts per wanted element when values must be unique (sets, hash keys).
        UNIQUE_ATTEMPTS = 10

        # @param element [Arbitrary]
        # @param min [Integer] minimum length
        # @param max [Integer, nil] maximum length (nil: the run's size)
        # @param unique_by [Proc, nil] elements must differ in this (realized) key
        # @raise [ArgumentError] for a negative min or max < min
        def initialize(element, min: 0, max: nil, unique_by: nil)
          super()
          unless min.is_a?(::Integer) && min >= 0 && (max.nil? || (max.is_a?(::Integer) && max >= min))
            raise ArgumentError, "collection needs 0 <= min <= max, got min: #{min.inspect}, max: #{max.inspect}"
          end

          @element = element
          @min = min
          @max = max
          @unique_by = unique_by
        end

        # @see Arbitrary#generate
        def generate(choices, size)
          # The size bounds fresh lengths only: a shrunk case may join two
          # inner arrays into one longer than its run's size.
          max = @max || ::Float::INFINITY
          length = (rng = choices.random) && fresh_length(rng, @max || [@min, size].max)
          out = []
          seen = {} if @unique_by
          choices.collection(self, @min, max, length) do
            seen ? add_unique(choices, size, out, seen) : out << @element.generate(choices, size)
          end
          out
        end

        # @see Arbitrary#realize
        def realize(raw) = @element.plain? ? raw.dup : raw.map { |r| @element.realize(r) }

        # @see Arbitrary#plain?
        def plain? = false

        # @return [String]
        def inspect = "array(#{@element.inspect}, min: #{@min}, max: #{@max.inspect})"

        private

        def fresh_length(rng, max) = rng.rand(EDGE_ODDS).zero? ? @min : rng.rand(@min..max)

        # Draws until an element's key is new (earlier attempts are discarded
        # spans); false when none was within UNIQUE_ATTEMPTS, which ends the
        # collection.
        def add_unique(choices, size, out, seen)
          UNIQUE_ATTEMPTS.times do
            raw, fresh = choices.attempt(self) do
              raw = @element.generate(choices, size)
              key = @unique_by.call(@element.realize(raw))
              [raw, !seen.key?(key) && (seen[key] = true)]
            end
            return out << raw if fresh
          end
          false
        end
      end
    end
  end
end
