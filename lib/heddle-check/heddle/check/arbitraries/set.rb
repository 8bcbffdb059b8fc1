# frozen_string_literal: true

require "set"
require_relative "array"

module Heddle
  module Check
    module Arbitraries
      # Sets: arrays of distinct values, realized as a ::Set.
      class Set < Array
        # @param element [Arbitrary]
        # @param min [Integer]
        # @param max [Integer, nil]
        def initialize(element, min: 0, max: nil)
          super(element, min: min, max: max, unique_by: ->(v) { v })
        end

        # @see Arbitrary#realize
        def realize(raw) = ::Set.new(super)

        # @return [::String]
        def inspect = "set(#{super})"
      end
    end
  end
end
