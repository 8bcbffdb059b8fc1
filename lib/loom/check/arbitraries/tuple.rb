# frozen_string_literal: true

module Loom
  module Check
    module Arbitraries
      # A fixed-length Array, one value per arbitrary; shrinks one position at
      # a time, left to right.
      class Tuple < Arbitrary
        attr_reader :arbitraries

        # @param arbitraries [Array<Arbitrary>]
        def initialize(arbitraries)
          super()
          @arbitraries = arbitraries
          @plain = arbitraries.all?(&:plain?)
        end

        # @see Arbitrary#generate
        def generate(rng, size) = @arbitraries.map { |a| a.generate(rng, size) }

        # @see Arbitrary#realize
        def realize(raw) = @plain ? raw.dup : raw.each_with_index.map { |r, i| @arbitraries[i].realize(r) }

        # @see Arbitrary#plain?
        def plain? = false

        # @see Arbitrary#shrink
        def shrink(raw)
          Enumerator.new do |out|
            raw.each_with_index do |part, i|
              @arbitraries[i].shrink(part).each { |c| out << replace_at(raw, i, c) }
            end
          end
        end

        # @return [String]
        def inspect = "tuple(#{@arbitraries.map(&:inspect).join(', ')})"
      end
    end
  end
end
