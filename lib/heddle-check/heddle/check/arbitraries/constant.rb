# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # Always the same value (nil for `Heddle::Check.nil`); makes no choice.
      class Constant < Arbitrary
        # @param value [Object]
        def initialize(value)
          super()
          @value = value
        end

        # @see Arbitrary#generate
        def generate(_choices, _size) = @value

        # @see Arbitrary#distinct_values
        def distinct_values = 1

        # @return [String]
        def inspect = "constant(#{@value.inspect})"
      end
    end
  end
end
