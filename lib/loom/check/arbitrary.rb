# frozen_string_literal: true

module Loom
  module Check
    # A generator of random values that knows how to shrink them.
    #
    # Every arbitrary works on a *raw* form: `generate` returns a raw value,
    # `realize` turns it into the value the property sees, and `shrink` lists
    # simpler raws, best first. For plain arbitraries (integers, booleans, ...)
    # raw and value are the same; `map`, `bind` and strings keep their source
    # in the raw form so that shrinking works on the source. Raws stay in the
    # driver; only realized values travel to workers.
    class Arbitrary
      # @param rng [Random] the check's random source
      # @param size [Integer] how big collections may grow (grows over the runs)
      # @return [Object] a raw value
      def generate(rng, size)
        raise NotImplementedError, "#{self.class} must implement #generate(rng, size)"
      end

      # @param raw [Object] a raw value from #generate or #shrink
      # @return [Object] the value a property receives
      def realize(raw) = raw

      # @param _raw [Object] a raw value that made the property fail
      # @return [Enumerable<Object>] simpler raws, most preferred first
      def shrink(_raw) = EMPTY

      # @return [Boolean] true when #realize is the identity (lets hot loops skip it)
      def plain? = true

      # @return [Boolean] true when values are Integers that may be summed (array merging)
      def summable? = false

      # A new arbitrary whose values are `fn` applied to this one's; shrinks
      # through the source.
      #
      # @example
      #   Loom::Check.integer(min: 0, max: 9).map { |n| n * 2 }
      # @yieldparam value [Object]
      # @return [Arbitraries::Mapped]
      def map(&function) = Arbitraries::Mapped.new(self, function)

      # A new arbitrary keeping only values the block accepts. Gives up with
      # {FilterExhaustedError} after `max_attempts` rejections in a row instead
      # of looping forever.
      #
      # @example
      #   Loom::Check.integer.filter(&:even?)
      # @param max_attempts [Integer]
      # @yieldparam value [Object]
      # @return [Arbitraries::Filtered]
      def filter(max_attempts: Arbitraries::Filtered::MAX_ATTEMPTS, &pred)
        Arbitraries::Filtered.new(self, pred, max_attempts)
      end

      # A new arbitrary drawn from the arbitrary the block returns for each of
      # this one's values (e.g. an index within a generated array).
      #
      # @example
      #   Loom::Check.integer(min: 1, max: 5).bind { |n| Loom::Check.array(Loom::Check.nat, min: n, max: n) }
      # @yieldparam value [Object]
      # @yieldreturn [Arbitrary]
      # @return [Arbitraries::Bound]
      def bind(&function) = Arbitraries::Bound.new(self, function)
      alias flat_map bind

      # Realized sample values, for a look at what an arbitrary produces.
      #
      # @example
      #   Loom::Check.boolean.sample(3, seed: 1) # => e.g. [true, false, false]
      # @param count [Integer]
      # @param seed [Integer]
      # @param size [Integer]
      # @return [Array]
      def sample(count = 10, seed: Random.new_seed, size: Sizing::MAX_SIZE)
        rng = Random.new(seed)
        Array.new(count) { realize(generate(rng, size)) }
      end

      EMPTY = [].freeze

      private

      # A copy of the Array +raw+ with +value+ at +index+: one shrink step of
      # a collection's element (arrays, tuples, command sequences).
      def replace_at(raw, index, value)
        copy = raw.dup
        copy[index] = value
        copy
      end
    end
  end
end
