# frozen_string_literal: true

module Loom
  module Check
    module Arbitraries
      # A Hash with fixed keys, each value from its own arbitrary; shrinks the
      # values one key at a time.
      class FixedHash < Arbitrary
        attr_reader :keys

        # @param shape [Hash{Object => Arbitrary}]
        def initialize(shape)
          super()
          @keys = shape.keys
          @tuple = Tuple.new(shape.values)
        end

        # @see Arbitrary#generate
        def generate(rng, size) = @tuple.generate(rng, size)

        # @see Arbitrary#realize
        def realize(raw) = @keys.zip(@tuple.realize(raw)).to_h

        # @see Arbitrary#plain?
        def plain? = false

        # @see Arbitrary#shrink
        def shrink(raw) = @tuple.shrink(raw)

        # @return [String]
        def inspect
          "fixed_hash(#{@keys.zip(@tuple.arbitraries).map { |k, a| "#{k.inspect} => #{a.inspect}" }.join(', ')})"
        end
      end
    end
  end
end
