# frozen_string_literal: true

module Loom
  module Check
    module Arbitraries
      # true or false; true shrinks to false.
      class Boolean < Arbitrary
        TO_FALSE = [false].freeze

        # @see Arbitrary#generate
        def generate(rng, _size) = rng.rand(2).zero?

        # @see Arbitrary#shrink
        def shrink(raw) = raw ? TO_FALSE : EMPTY

        # @return [String]
        def inspect = "boolean"
      end
    end
  end
end
