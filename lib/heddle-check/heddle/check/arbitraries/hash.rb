# frozen_string_literal: true

require_relative "array"

module Heddle
  module Check
    module Arbitraries
      # Hashes with keys and values from two arbitraries: arrays of distinct-key
      # pairs, realized as a ::Hash. Shrinks by removing pairs, then shrinking
      # keys and values.
      class Hash < Array
        # @param key [Arbitrary]
        # @param value [Arbitrary]
        # @param min [Integer] minimum number of pairs
        # @param max [Integer, nil]
        def initialize(key, value, min: 0, max: nil)
          @key = key # (before super: its door check counts the keys' distinct values)
          super(Tuple.new([key, value]), min: min, max: max, unique_by: :first.to_proc)
        end

        # @see Arbitrary#realize
        def realize(raw) = super.to_h

        # @return [::String]
        def inspect = "hash(#{super})"

        private

        # Pairs are unique by key: as many as the keys' distinct values.
        def distinct_source = @key
      end
    end
  end
end
