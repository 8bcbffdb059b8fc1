# frozen_string_literal: true

require_relative "sizing"

module Heddle
  module Check
    # A generator of random values, shrunk through the choices it made.
    #
    # Every arbitrary works on a *raw* form: `generate` draws the choices it
    # needs from a {Choices} and returns a raw value, `realize` turns it into
    # the value the property sees. For plain arbitraries (integers, booleans,
    # ...) raw and value are the same; `map`, `bind` and strings keep their
    # source in the raw form. Raws stay in the driver; only realized values
    # travel to workers.
    #
    # There is no per-arbitrary shrinking: the shrinker ({Shrinker}) shrinks
    # the recorded choices and replays `generate` over them, so a custom
    # arbitrary only has to draw from the Choices it is given (which answers
    # `rand` like a Random) to shrink as well as the built-in ones.
    class Arbitrary
      # @param choices [Choices] where to draw choices from (records them; answers `rand` like Random)
      # @param size [Integer] how big collections may grow (grows over the runs)
      # @return [Object] a raw value
      def generate(choices, size)
        raise NotImplementedError, "#{self.class} must implement #generate(choices, size)"
      end

      # @param raw [Object] a raw value from #generate
      # @return [Object] the value a property receives
      def realize(raw) = raw

      # @return [Boolean] true when #realize is the identity (lets hot loops skip it)
      def plain? = true

      # @return [Integer, nil] how many different values it can draw, when
      #   that is known and small (sets and hash keys refuse a larger min:); nil: unknown
      def distinct_values = nil

      # A new arbitrary whose values are `fn` applied to this one's; shrinks
      # through the source.
      #
      # @example
      #   Heddle::Check.integer(min: 0, max: 9).map { |n| n * 2 }
      # @yieldparam value [Object]
      # @return [Arbitraries::Mapped]
      def map(&function) = Arbitraries::Mapped.new(self, function)

      # A new arbitrary keeping only values the block accepts. Gives up with
      # {FilterExhaustedError} after `max_attempts` rejections in a row instead
      # of looping forever.
      #
      # @example
      #   Heddle::Check.integer.filter(&:even?)
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
      #   Heddle::Check.integer(min: 1, max: 5).bind { |n| Heddle::Check.array(Heddle::Check.nat, min: n, max: n) }
      # @yieldparam value [Object]
      # @yieldreturn [Arbitrary]
      # @return [Arbitraries::Bound]
      def bind(&function) = Arbitraries::Bound.new(self, function)
      alias flat_map bind

      # Realized sample values, for a look at what an arbitrary produces.
      #
      # @example
      #   Heddle::Check.boolean.sample(3, seed: 1) # => e.g. [true, false, false]
      # @param count [Integer]
      # @param seed [Integer]
      # @param size [Integer]
      # @return [Array]
      def sample(count = 10, seed: Random.new_seed, size: Sizing::MAX_SIZE)
        rng = Random.new(seed)
        Array.new(count) { realize(generate(Choices.fresh(rng), size)) }
      end

      EMPTY = [].freeze
    end
  end
end
