# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # A fixed-length Array, one value per arbitrary, drawn left to right.
      class Tuple < Arbitrary
        attr_reader :arbitraries

        # @param arbitraries [Array<Arbitrary>]
        def initialize(arbitraries)
          super()
          @arbitraries = arbitraries
          @plain = arbitraries.all?(&:plain?)
        end

        # @see Arbitrary#generate
        def generate(choices, size) = @arbitraries.map { |a| a.generate(choices, size) }

        # @see Arbitrary#realize
        def realize(raw) = @plain ? raw.dup : raw.each_with_index.map { |r, i| @arbitraries[i].realize(r) }

        # @see Arbitrary#plain?
        def plain? = false

        # @return [String]
        def inspect = "tuple(#{@arbitraries.map(&:inspect).join(', ')})"
      end
    end
  end
end
