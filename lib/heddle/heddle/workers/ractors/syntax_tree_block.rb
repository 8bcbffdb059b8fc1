# frozen_string_literal: true

module Heddle
  module Workers
    module Ractors
      # Places a block literal with RubyVM::AbstractSyntaxTree, for
      # {BlockSource} where Prism cannot be loaded (Ruby 3.1 or 3.2 without the
      # prism gem). It reads only code compiled by parse.y: on Ruby 3.4 it
      # raises "cannot get AST for ISEQ compiled by prism".
      module SyntaxTreeBlock
        VARIABLE_READS = %i[LVAR DVAR].freeze
        SELF_READS = %i[IVAR CVAR SELF].freeze

        module_function

        # @return [String]
        def label = "RubyVM::AbstractSyntaxTree"

        # @return [Boolean]
        def available? = defined?(RubyVM::AbstractSyntaxTree.of) ? true : false

        # @param block [Proc]
        # @param file [String]
        # @param _location [Array] unused: the tree knows where the block is
        # @return [BlockSource::Placed]
        # @raise [ArgumentError, RuntimeError, SystemCallError] when the tree or the file cannot be read
        def place(block, file, _location)
          node = RubyVM::AbstractSyntaxTree.of(block)
          lines = File.readlines(file)[(node.first_lineno - 1)..(node.last_lineno - 1)]
          before = lines[0].byteslice(0, node.first_column)
          BlockSource::Placed.new(maker(block, before) + source(node, lines), file, node.first_lineno,
                                  outer_reads(node))
        end

        # A lambda literal's node starts after its `->`.
        def maker(block, before)
          return "->" if before.rstrip.end_with?("->")

          block.lambda? ? "lambda " : "proc "
        end

        def source(node, lines)
          lines = lines.dup
          lines[-1] = lines[-1].byteslice(0, node.last_column)
          lines[0] = lines[0].byteslice(node.first_column..)
          lines.join
        end

        # Names read and declared by no scope inside the block.
        def outer_reads(root)
          declared = []
          read = []
          walk(root) do |n|
            declared.concat(n.children[0]) if n.type == :SCOPE
            read << n.children[0] if VARIABLE_READS.include?(n.type)
            read << (n.type == :SELF ? :self : n.children[0]) if SELF_READS.include?(n.type)
          end
          (read - declared).uniq
        end

        def walk(node, &visit)
          return unless node.is_a?(RubyVM::AbstractSyntaxTree::Node)

          visit.call(node)
          node.children.each { |c| walk(c, &visit) }
        end

        private_class_method :maker, :source, :outer_reads, :walk
      end
    end
  end
end
