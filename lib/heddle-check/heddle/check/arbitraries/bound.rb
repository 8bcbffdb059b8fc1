# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # Values drawn from an arbitrary chosen by a function of a source value
      # (bind / flat_map). The inner value's choices follow the source's in
      # the same sequence, so the shrinker shrinks both together: it keeps
      # the inner value while shrinking the source (replayed through the new
      # inner arbitrary), instead of drawing a new one. The raw value is
      # [source raw, inner arbitrary, inner raw].
      class Bound < Arbitrary
        # @param source [Arbitrary]
        # @param function [Proc] returns an Arbitrary for a source value
        def initialize(source, function)
          super()
          raise ArgumentError, "bind needs a block returning an arbitrary" unless function

          @source = source
          @function = function
        end

        # @see Arbitrary#generate
        def generate(choices, size)
          choices.span(self) do
            outer = @source.generate(choices, size)
            inner = inner_for(outer)
            [outer, inner, inner.generate(choices, size)]
          end
        end

        # @see Arbitrary#realize
        def realize(raw) = raw[1].realize(raw[2])

        # @see Arbitrary#plain?
        def plain? = false

        # @return [::String]
        def inspect = "#{@source.inspect}.bind"

        private

        def inner_for(outer)
          arbitrary = @function.call(@source.realize(outer))
          return arbitrary if arbitrary.is_a?(Arbitrary)

          raise TypeError, "bind block must return a Heddle::Check::Arbitrary, got #{arbitrary.inspect}"
        end
      end
    end
  end
end
