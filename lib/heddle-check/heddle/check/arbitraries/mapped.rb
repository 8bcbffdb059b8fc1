# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # Values of a source arbitrary passed through a function; the raw value
      # is the source's, and shrinking works on the choices behind it.
      class Mapped < Arbitrary
        # @param source [Arbitrary]
        # @param function [Proc]
        def initialize(source, function)
          super()
          raise ArgumentError, "map needs a block, e.g. .map { |v| v.to_s }" unless function

          @source = source
          @function = function
        end

        # @see Arbitrary#generate
        def generate(choices, size) = @source.generate(choices, size)

        # @see Arbitrary#realize
        def realize(raw) = @function.call(@source.realize(raw))

        # @see Arbitrary#plain?
        def plain? = false

        # @return [::String]
        def inspect = "#{@source.inspect}.map"
      end
    end
  end
end
