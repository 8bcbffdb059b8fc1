# frozen_string_literal: true

module Loom
  module Check
    module Arbitraries
      # Values drawn from an arbitrary chosen by a function of a source value
      # (bind / flat_map). The raw value is [source raw, seed, size, inner raw]:
      # the seed regenerates the inner value when the source shrinks, since
      # the old inner value may not fit the new inner arbitrary.
      class Bound < Arbitrary
        SEED_RANGE = 2**62

        # @param source [Arbitrary]
        # @param function [Proc] returns an Arbitrary for a source value
        def initialize(source, function)
          super()
          raise ArgumentError, "bind needs a block returning an arbitrary" unless function

          @source = source
          @function = function
        end

        # @see Arbitrary#generate
        def generate(rng, size)
          outer = @source.generate(rng, size)
          seed = rng.rand(SEED_RANGE)
          [outer, seed, size, inner_for(outer).generate(Random.new(seed), size)]
        end

        # @see Arbitrary#realize
        def realize(raw) = inner_for(raw[0]).realize(raw[3])

        # @see Arbitrary#plain?
        def plain? = false

        # @see Arbitrary#shrink
        def shrink(raw)
          outer, seed, size, inner = raw
          Enumerator.new do |out|
            inner_for(outer).shrink(inner).each { |c| out << [outer, seed, size, c] }
            @source.shrink(outer).each do |o|
              out << [o, seed, size, inner_for(o).generate(Random.new(seed), size)]
            end
          end
        end

        # @return [::String]
        def inspect = "#{@source.inspect}.bind"

        private

        def inner_for(outer)
          arbitrary = @function.call(@source.realize(outer))
          return arbitrary if arbitrary.is_a?(Arbitrary)

          raise TypeError, "bind block must return a Loom::Check::Arbitrary, got #{arbitrary.inspect}"
        end
      end
    end
  end
end
