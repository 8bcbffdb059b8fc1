# frozen_string_literal: true

require_relative "prism_block"
require_relative "syntax_tree_block"

module Heddle
  module Workers
    module Ractors
      # Where a block literal is in its file: its source, ready to be evaluated
      # again, and the names it reads from outside itself. {Isolation} rebuilds
      # from it a block whose `self` no ractor may share.
      #
      # Ruby's parser finds the block: Prism ({PrismBlock}: a default gem from
      # Ruby 3.3, the compiler from 3.4, whose code RubyVM::AbstractSyntaxTree
      # cannot read), else RubyVM::AbstractSyntaxTree ({SyntaxTreeBlock}: code
      # compiled by parse.y, as on Ruby 3.1 without the prism gem). Which one
      # is a feature test, never a version check.
      module BlockSource
        # code: an expression that makes the block again ("proc { |x| ... }");
        # line: the line it starts on; outer: the outer names it reads, in
        # order (local variables, instance and class variables, :self).
        Placed = Struct.new(:code, :file, :line, :outer)

        # No parser could place the block; the message says why.
        class Unplaceable < StandardError; end

        # Tried in order: the first available that places the block wins.
        PARSERS = [PrismBlock, SyntaxTreeBlock].freeze

        module_function

        # @param block [Proc]
        # @return [Placed]
        # @raise [Unplaceable] when no parser can place it (no file, no parser, code changed)
        def of(block)
          file, = block.source_location
          raise Unplaceable, "Ruby knows no source file for it" unless file && File.file?(file)

          location = code_location(block)
          raise Unplaceable, "Ruby knows no code location for it" unless location

          place(block, file, location)
        end

        # [first line, first column, last line, last column] of the block
        # literal, columns in bytes, as both parsers count them; nil for a
        # Proc made from a method or a symbol.
        # @param block [Proc]
        # @return [Array(Integer, Integer, Integer, Integer), nil]
        def code_location(block)
          RubyVM::InstructionSequence.of(block)&.to_a&.dig(4, :code_location)
        end

        def place(block, file, location)
          tried = PARSERS.select(&:available?).map do |parser|
            placed = parser.place(block, file, location)
            return placed if placed

            "#{parser.label} finds no block at #{file}:#{location[0]}:#{location[1]} (was the file changed?)"
          rescue StandardError, SyntaxError => e
            "#{parser.label}: #{e.message}"
          end
          raise Unplaceable, tried.join("; ") unless tried.empty?

          raise Unplaceable, "no parser is available (prism, RubyVM::AbstractSyntaxTree)"
        end
        private_class_method :place
      end
    end
  end
end
