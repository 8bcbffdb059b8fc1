# frozen_string_literal: true

require_relative "../arbitrary"

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
        # Attempts per element still below `min:` (giving up there raises).
        UNIQUE_ATTEMPTS_BELOW_MIN = 100
        # The longest collection a fresh draw builds: a larger `max:` is
        # accepted (it bounds shrunk and replayed cases too) but lengths are
        # drawn up to this, and a larger `min:` is refused. A run builds
        # hundreds of values; a length of 10**30 hung.
        MAX_LENGTH = 100_000

        # @param element [Arbitrary]
        # @param min [Integer] minimum length
        # @param max [Integer, nil] maximum length (nil: the run's size)
        # @param unique_by [Proc, nil] elements must differ in this (realized) key
        # @raise [TypeError] when element is not an Arbitrary, or min/max not Integers
        # @raise [ArgumentError] for a negative min, max < min, min beyond MAX_LENGTH,
        #   or unique elements fewer than min (a set of booleans with min: 3)
        def initialize(element, min: 0, max: nil, unique_by: nil)
          super()
          check_bounds!(element, min, max)
          @element = element
          @min = min
          @max = max
          @unique_by = unique_by
          check_distinct! if unique_by
        end

        # @see Arbitrary#generate
        def generate(choices, size)
          # The size bounds fresh lengths only: a shrunk case may join two
          # inner arrays into one longer than its run's size.
          max = @max || ::Float::INFINITY
          length = (rng = choices.random) && fresh_length(rng, [@max || [@min, size].max, MAX_LENGTH].min)
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

        # What the factory is called (array, string, set, hash), for messages.
        def kind = self.class.name.split("::").last.downcase

        def check_bounds!(element, min, max)
          unless element.is_a?(Arbitrary)
            raise TypeError, "#{kind}: of: must be a Heddle::Check::Arbitrary, got #{element.inspect} " \
                             "(#{element.class}); wrap plain values in constant(...)"
          end
          [[:min, min], [:max, max]].each do |name, value|
            next if value.is_a?(::Integer) || (name == :max && value.nil?)

            raise TypeError, "#{kind}: #{name}: must be an Integer#{' or nil' if name == :max}, got #{value.inspect}"
          end
          check_range!(min, max)
        end

        def check_range!(min, max)
          unless min >= 0 && (max.nil? || max >= min)
            raise ArgumentError, "#{kind} needs 0 <= min <= max, got min: #{min.inspect}, max: #{max.inspect}"
          end
          return if min <= MAX_LENGTH

          raise ArgumentError, "#{kind}: min: #{min} is beyond the longest collection a run builds (#{MAX_LENGTH})"
        end

        # Unique elements from an arbitrary of known few values (booleans,
        # constants, narrow integer ranges) cannot reach a larger min.
        def check_distinct!
          distinct = distinct_source.distinct_values
          return if distinct.nil? || distinct >= @min

          raise ArgumentError, "#{kind}: min: #{@min} distinct elements cannot be drawn from " \
                               "#{distinct_source.inspect}, which has only #{distinct} values"
        end

        # The arbitrary whose values must differ (the elements; a hash's keys).
        def distinct_source = @element

        def fresh_length(rng, max) = rng.rand(EDGE_ODDS).zero? ? @min : rng.rand(@min..max)

        # Draws until an element's key is new (earlier attempts are discarded
        # spans); false when none was within UNIQUE_ATTEMPTS, which ends the
        # collection. Below min: it tries longer, then raises, rather than
        # answer a collection shorter than min.
        def add_unique(choices, size, out, seen)
          attempts = out.size < @min ? UNIQUE_ATTEMPTS_BELOW_MIN : UNIQUE_ATTEMPTS
          attempts.times do
            raw, fresh = choices.attempt(self) do
              raw = @element.generate(choices, size)
              key = @unique_by.call(@element.realize(raw))
              [raw, !seen.key?(key) && (seen[key] = true)]
            end
            return out << raw if fresh
          end
          return false if out.size >= @min

          raise FilterExhaustedError, "#{kind}: found only #{out.size} distinct elements of #{@element.inspect} " \
                                      "in #{attempts} draws, fewer than min: #{@min}"
        end
      end
    end
  end
end
