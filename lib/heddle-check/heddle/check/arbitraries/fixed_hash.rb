# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # A Hash with fixed keys, each value from its own arbitrary.
      class FixedHash < Arbitrary
        attr_reader :keys

        # @param shape [Hash{Object => Arbitrary}]
        def initialize(shape)
          super()
          @keys = shape.keys
          @tuple = Tuple.new(shape.values)
        end

        # @see Arbitrary#generate
        def generate(choices, size) = @tuple.generate(choices, size)

        # @see Arbitrary#realize
        def realize(raw) = @keys.zip(@tuple.realize(raw)).to_h

        # @see Arbitrary#plain?
        def plain? = false

        # @return [String]
        def inspect
          "fixed_hash(#{@keys.zip(@tuple.arbitraries).map { |k, a| "#{k.inspect} => #{a.inspect}" }.join(', ')})"
        end
      end
    end
  end
end
