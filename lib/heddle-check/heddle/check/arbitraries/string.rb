# frozen_string_literal: true

require_relative "array"

module Heddle
  module Check
    module Arbitraries
      # Strings of characters from a {Char} table; shrinks like an array of
      # characters (shorter first, then simpler characters).
      class String < Array
        # @param char [Char]
        # @param min [Integer] minimum length in characters
        # @param max [Integer, nil] maximum length (nil: the run's size)
        def initialize(char, min: 0, max: nil)
          super
          @char = char
        end

        # @see Arbitrary#realize
        # (built on a UTF-8 buffer: `[].join` would be US-ASCII)
        def realize(raw)
          raw.each_with_object(::String.new(encoding: Encoding::UTF_8)) { |r, s| s << @char.realize(r) }
        end

        # @return [::String]
        def inspect = "string(#{@char.inspect})"
      end
    end
  end
end
