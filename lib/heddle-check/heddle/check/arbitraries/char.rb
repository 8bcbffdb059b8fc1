# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # One-character Strings drawn from codepoint ranges. The raw value is an
      # index into the ranges laid end to end, so shrinking an index toward 0
      # shrinks toward the first range: the tables start with "a".."z", and
      # "a" is the simplest character. Surrogates are never in a table, so
      # every value is valid UTF-8.
      class Char < Arbitrary
        LOWER = (97..122)
        UPPER = (65..90)
        DIGIT = (48..57)
        PUNCT = [(32..47), (58..64), (91..96), (123..126)].freeze
        PRINTABLE = [LOWER, UPPER, DIGIT, *PUNCT].freeze
        # Every Unicode scalar value, printable ASCII first; no surrogates (0xD800..0xDFFF).
        UNICODE = [*PRINTABLE, (0..31), (127..0xD7FF), (0xE000..0x10FFFF)].freeze
        ALPHANUMERIC = [LOWER, UPPER, DIGIT].freeze
        HEX = [DIGIT, (97..102)].freeze
        ASCII = [*PRINTABLE, (0..31), (127..127)].freeze
        # Half the draws of a wide table come from printable ASCII, where bugs hide.
        PRINTABLE_SIZE = PRINTABLE.sum(&:size)

        # @param ranges [Array<Range>] codepoint ranges, simplest first
        # @param name [String] shown by inspect
        def initialize(ranges, name)
          super()
          @ranges = ranges
          @starts = ranges.each_with_object([0]) { |r, acc| acc << (acc.last + r.size) }
          @total = @starts.pop
          @name = name
        end

        # @see Arbitrary#generate
        def generate(choices, _size)
          choices.integer(0, @total - 1, 0) do |rng|
            @total > PRINTABLE_SIZE && rng.rand(2).zero? ? rng.rand(PRINTABLE_SIZE) : rng.rand(@total)
          end
        end

        # @see Arbitrary#realize
        def realize(raw)
          at = @starts.bsearch_index { |s| s > raw } || @starts.size
          (@ranges[at - 1].begin + raw - @starts[at - 1]).chr(Encoding::UTF_8)
        end

        # @see Arbitrary#plain?
        def plain? = false

        # @return [String]
        def inspect = @name
      end
    end
  end
end
