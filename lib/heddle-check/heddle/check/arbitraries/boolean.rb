# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # true or false, one choice; true shrinks to false.
      class Boolean < Arbitrary
        # @see Arbitrary#generate
        def generate(choices, _size) = choices.boolean

        # @see Arbitrary#distinct_values
        def distinct_values = 2

        # @return [String]
        def inspect = "boolean"
      end
    end
  end
end
