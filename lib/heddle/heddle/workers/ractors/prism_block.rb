# frozen_string_literal: true

module Heddle
  module Workers
    module Ractors
      # Places a block literal with Prism, Ruby's parser (a default gem from
      # Ruby 3.3; the prism gem on 3.1), for {BlockSource}. Loaded on first
      # use, and only if it can be: the heddle gem depends on no gem.
      module PrismBlock
        # Reads of a local variable (a compound assignment reads it too).
        LOCAL_READS = %i[local_variable_read_node local_variable_operator_write_node
                         local_variable_or_write_node local_variable_and_write_node].freeze
        # Reads of self's state, and self itself.
        SELF_READS = %i[instance_variable_read_node instance_variable_operator_write_node
                        instance_variable_or_write_node instance_variable_and_write_node class_variable_read_node
                        class_variable_operator_write_node class_variable_or_write_node
                        class_variable_and_write_node self_node].freeze
        # Bodies with a self and locals of their own: nothing in them reads the block's.
        OWN_SCOPES = %i[def_node class_node module_node singleton_class_node].freeze
        BLOCKS = %i[block_node lambda_node].freeze

        module_function

        # @return [String]
        def label = "prism"

        # @return [Boolean] whether Prism is loaded or can be
        def available?
          return true if defined?(::Prism.parse_file)

          require "prism"
          true
        rescue LoadError
          false
        end

        # @param block [Proc]
        # @param file [String]
        # @param location [Array(Integer, Integer, Integer, Integer)] {BlockSource.code_location}
        # @return [BlockSource::Placed, nil] nil when no block literal of the file ends there
        def place(block, file, location)
          node = find(::Prism.parse_file(file).value, location)
          return unless node

          found = []
          node.compact_child_nodes.each { |child| outer_reads(child, 0, found) }
          BlockSource::Placed.new(code(block, node), file, node.location.start_line, found.uniq)
        end

        # An expression that makes the block again: a lambda literal is one.
        def code(block, node)
          return node.slice if node.type == :lambda_node

          "#{block.lambda? ? 'lambda' : 'proc'} #{node.slice}"
        end

        # The block literal that starts on the location's first line and ends
        # where it ends. A lambda literal's code location starts at its
        # parameters (after the `->`), a block's at its `{` or `do`; no two
        # block literals end at one place.
        def find(root, location)
          first_line, _, last_line, last_column = location
          pending = [root]
          while (node = pending.pop)
            where = node.location
            return node if BLOCKS.include?(node.type) && where.start_line == first_line &&
                           where.end_line == last_line && where.end_column == last_column

            pending.concat(node.compact_child_nodes)
          end
          nil
        end

        # Collects names read from outside the block, in source order: a
        # local whose depth (scopes up from its read) reaches past the block,
        # any instance or class variable, and self. nesting: blocks entered
        # inside the block.
        def outer_reads(node, nesting, found)
          kind = node.type
          return if OWN_SCOPES.include?(kind)

          name = read(node, kind, nesting)
          found << name if name
          inner = BLOCKS.include?(kind) ? nesting + 1 : nesting
          node.compact_child_nodes.each { |child| outer_reads(child, inner, found) }
        end

        # @return [Symbol, nil] the outer name the node reads, if any
        def read(node, kind, nesting)
          return node.name if LOCAL_READS.include?(kind) && node.depth > nesting
          return :self if kind == :self_node

          node.name if SELF_READS.include?(kind)
        end

        private_class_method :code, :find, :outer_reads, :read
      end
    end
  end
end
