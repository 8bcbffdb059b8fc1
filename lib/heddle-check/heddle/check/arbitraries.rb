# frozen_string_literal: true

require_relative "choices"
require_relative "arbitrary"
Dir[File.join(__dir__, "arbitraries", "*.rb")].each { |f| require f }

module Heddle
  module Check
    # The factory methods for arbitraries, extended into {Heddle::Check} so that
    # `Heddle::Check.integer` and friends read like a vocabulary. Include it in
    # a test class to write `integer` alone.
    module Arbitraries
      # Default bounds of `integer`, as Pbt's, so the seed's cases compare.
      INTEGER_MIN = -1_000_000
      INTEGER_MAX = 1_000_000
      DATE_MIN = ::Date.new(1970, 1, 1)
      DATE_MAX = ::Date.new(2099, 12, 31)

      # @example
      #   Heddle::Check.integer(min: 1, max: 6)
      # @param min [::Integer] @param max [::Integer]
      # @return [Arbitrary<::Integer>] integers in min..max, biased to 0, ±1, min, max
      def integer(min: INTEGER_MIN, max: INTEGER_MAX) = Integer.new(min, max)

      # @param max [::Integer]
      # @return [Arbitrary<::Integer>] integers in 0..max
      def nat(max: INTEGER_MAX) = Integer.new(0, max)

      # @example
      #   Heddle::Check.float(nan: true)
      # @param min [Numeric] @param max [Numeric] @param nan [Boolean] whether NaN may appear
      # @return [Arbitrary<::Float>] floats with 0.0, -0.0, ±Infinity among the edges
      def float(min: -::Float::INFINITY, max: ::Float::INFINITY, nan: false) = Float.new(min: min, max: max, nan: nan)

      # @return [Arbitrary<Boolean>]
      def boolean = Boolean.new

      # @return [Arbitrary<::String>] any Unicode scalar value (valid UTF-8), ASCII-biased
      def char = Char.new(Char::UNICODE, "char")

      # @return [Arbitrary<::String>] printable ASCII characters (" ".."~")
      def printable_char = Char.new(Char::PRINTABLE, "printable_char")

      # @return [Arbitrary<::String>] ASCII characters, control characters included
      def ascii_char = Char.new(Char::ASCII, "ascii_char")

      # @return [Arbitrary<::String>] a-z, A-Z, 0-9
      def alphanumeric_char = Char.new(Char::ALPHANUMERIC, "alphanumeric_char")

      # @return [Arbitrary<::String>] 0-9, a-f
      def hex_char = Char.new(Char::HEX, "hex_char")

      # @example
      #   Heddle::Check.string(of: Heddle::Check.hex_char, min: 1, max: 8)
      # @param of [Arbitraries::Char] the characters @param min [::Integer] @param max [::Integer, nil]
      # @return [Arbitrary<::String>] valid UTF-8 strings; length follows the run's size without max:
      def string(of: char, min: 0, max: nil) = String.new(of, min: min, max: max)

      # @param min [::Integer] @param max [::Integer, nil]
      # @return [Arbitrary<::String>] ASCII strings
      def ascii_string(min: 0, max: nil) = string(of: ascii_char, min: min, max: max)

      # @param min [::Integer] @param max [::Integer, nil]
      # @return [Arbitrary<::String>] printable ASCII strings
      def printable_string(min: 0, max: nil) = string(of: printable_char, min: min, max: max)

      # @param min [::Integer] @param max [::Integer, nil]
      # @return [Arbitrary<::String>] strings of a-z, A-Z, 0-9
      def alphanumeric_string(min: 0, max: nil) = string(of: alphanumeric_char, min: min, max: max)

      # @param max [::Integer, nil] maximum length
      # @return [Arbitrary<::Symbol>] symbols of 1+ alphanumeric characters
      def symbol(max: nil) = alphanumeric_string(min: 1, max: max).map(&:to_sym)

      # @example
      #   Heddle::Check.array(Heddle::Check.integer, max: 5)
      # @param of [Arbitrary] @param min [::Integer] @param max [::Integer, nil] (nil: the run's size)
      # @return [Arbitrary<::Array>]
      def array(of, min: 0, max: nil) = Array.new(of, min: min, max: max)

      # @param of [Arbitrary] @param min [::Integer] @param max [::Integer, nil]
      # @return [Arbitrary<::Set>] sets of distinct values
      def set(of, min: 0, max: nil) = Set.new(of, min: min, max: max)

      # With arguments, an arbitrary of Hashes; without, Object#hash (so the
      # module still works as a Hash key).
      #
      # @example
      #   Heddle::Check.hash(Heddle::Check.symbol, Heddle::Check.integer, max: 4)
      # @param key [Arbitrary] @param value [Arbitrary] @param min [::Integer] @param max [::Integer, nil]
      # @return [Arbitrary<::Hash>, ::Integer]
      def hash(key = nil, value = nil, min: 0, max: nil)
        return super() if key.nil? && value.nil?

        Hash.new(arbitrary!(key, "hash: key:"), arbitrary!(value, "hash: value:"), min: min, max: max)
      end

      # @example
      #   Heddle::Check.fixed_hash(name: Heddle::Check.alphanumeric_string, age: Heddle::Check.nat(max: 120))
      # @param shape [::Hash{Object => Arbitrary}]
      # @return [Arbitrary<::Hash>]
      def fixed_hash(shape) = FixedHash.new(shape.transform_values { |a| arbitrary!(a) })

      # @param arbitraries [::Array<Arbitrary>]
      # @return [Arbitrary<::Array>] one value per arbitrary
      def tuple(*arbitraries) = Tuple.new(arbitraries.map { |a| arbitrary!(a) })

      # @example
      #   Heddle::Check.one_of(:red, :green, Heddle::Check.integer)
      # @param choices [::Array<Arbitrary, Object>] arbitraries, or values (taken as constants)
      # @return [Arbitrary]
      def one_of(*choices) = OneOf.new(choices.map { |c| c.is_a?(Arbitrary) ? c : Constant.new(c) })

      # @example
      #   Heddle::Check.frequency([9, Heddle::Check.nat], [1, Heddle::Check.constant(-1)])
      # @param pairs [::Array<(::Integer, Arbitrary)>] weight and arbitrary (or value)
      # @return [Arbitrary]
      def frequency(*pairs)
        choices = pairs.map { |_, c| c.is_a?(Arbitrary) ? c : Constant.new(c) }
        OneOf.new(choices, pairs.map(&:first))
      end

      # An arbitrary built by the block on first use, so that it may refer to
      # itself. The recursion is bounded by the run's size: past it, draws end
      # in their first branch (put the base case first).
      #
      # @example Expressions
      #   expr = Heddle::Check.lazy do
      #     Heddle::Check.one_of(Heddle::Check.integer, Heddle::Check.tuple(Heddle::Check.constant(:+), expr, expr))
      #   end
      # @yieldreturn [Arbitrary]
      # @return [Arbitrary]
      # @raise [ArgumentError] without a block
      def lazy(&block) = Lazy.new(block)

      # Trees: a base arbitrary (the leaves) or what the block builds from the
      # tree arbitrary itself, bounded by the run's size like {#lazy}.
      #
      # @example Nested arrays of integers
      #   Heddle::Check.recursive(Heddle::Check.integer) { |tree| Heddle::Check.array(tree, max: 3) }
      # @param base [Arbitrary] the leaves (also what a node becomes past the bound)
      # @yieldparam tree [Arbitrary] the tree arbitrary, to nest
      # @yieldreturn [Arbitrary] a node
      # @return [Arbitrary]
      # @raise [ArgumentError] without a block
      def recursive(base, &extend)
        raise ArgumentError, "recursive needs a block building a node from the tree arbitrary" unless extend

        base = arbitrary!(base)
        tree = nil
        tree = Lazy.new(-> { OneOf.new([base, extend.call(tree)]) }, extend.source_location)
      end

      # @param value [Object] @return [Arbitrary] always value
      def constant(value) = Constant.new(value)

      # @return [Arbitrary<nil>] always nil
      def nil = Constant.new(nil)

      # @param min [::Date] @param max [::Date]
      # @return [Arbitrary<::Date>]
      def date(min: DATE_MIN, max: DATE_MAX) = Date.new(min, max)

      # @param min [::Time] @param max [::Time]
      # @return [Arbitrary<::Time>] UTC times, whole seconds
      def time(min: DATE_MIN.to_time.utc, max: DATE_MAX.to_time.utc) = Date.new(min, max)

      private

      def arbitrary!(value, name = nil)
        return value if value.is_a?(Arbitrary)

        raise TypeError, "#{"#{name} " if name}expected a Heddle::Check::Arbitrary, got #{value.inspect}; " \
                         "wrap plain values in constant(...)"
      end
    end
  end
end
