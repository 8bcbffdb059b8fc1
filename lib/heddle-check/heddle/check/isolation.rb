# frozen_string_literal: true

module Heddle
  module Check
    # Makes a property block shareable so a ractor pool can run it.
    #
    # A block written in a test has the test as `self`, which no ractor may
    # share, so `Ractor.make_shareable` refuses it. Pbt sidesteps this by
    # starting one ractor per value with `Ractor.new(&block)`, which isolates
    # the block; a pool needs a shareable Proc instead. When the block's self
    # is the obstacle, this re-evaluates the block's source with `nil` as
    # self: the same semantics as `Ractor.new` (no outer variables, no self),
    # checked up front so that a block that reads outer state is reported as
    # a harness error, not as a failing property. A block written in a
    # Minitest test gets {RactorAssertions} as self instead of nil, so that
    # its assertions work.
    module Isolation
      VARIABLE_READS = %i[LVAR DVAR].freeze
      SELF_READS = %i[IVAR CVAR SELF].freeze
      # Isolated blocks by source position: a block literal evaluated again (a
      # property built in every test run or benchmark iteration) is parsed once.
      @cache = {}
      @cache_lock = Mutex.new

      # @param predicate [Proc]
      # @return [Proc] a shareable Proc with the same behaviour
      # @raise [NotIsolatableError] when the block reads outer variables or self, or has no source
      def self.shareable(predicate)
        Ractor.make_shareable(predicate)
      rescue Ractor::IsolationError, ArgumentError
        key = cache_key(predicate)
        cached = key && @cache_lock.synchronize { @cache[key] }
        return cached if cached

        isolated = reevaluate(predicate)
        @cache_lock.synchronize { @cache[key] = isolated } if key
        isolated
      end

      # [file, mtime, exact code location] of the block literal, or nil when unknown.
      def self.cache_key(predicate)
        file = predicate.source_location&.first
        location = RubyVM::InstructionSequence.of(predicate)&.to_a&.dig(4, :code_location)
        return unless file && location && File.file?(file)

        [file, File.mtime(file), location]
      end

      def self.reevaluate(predicate)
        node, code = parse(predicate)
        check_isolated!(node, predicate)
        # The block's own file and line, so that backtraces point at the user's code: "proc { |x| ... }".
        shareable = self_for(predicate).instance_eval("proc #{code}", *predicate.source_location) # rubocop:disable Style/EvalWithLocation
        Ractor.make_shareable(shareable)
      end

      # nil, or for a block written in a Minitest test, an object with its
      # assertions that works in a ractor ({RactorAssertions}).
      def self.self_for(predicate)
        return nil unless defined?(::Minitest::Assertions) && predicate.binding.receiver.is_a?(::Minitest::Assertions)

        require_relative "ractor_assertions"
        RactorAssertions.instance
      rescue ArgumentError # a Proc made from a method has no binding
        nil
      end

      def self.parse(predicate)
        node = RubyVM::AbstractSyntaxTree.of(predicate)
        [node, source(node, predicate)]
      rescue ArgumentError, RuntimeError, SystemCallError => e
        raise NotIsolatableError, "cannot run the property block at #{predicate.source_location&.join(':')} " \
                                  "in a ractor: its source is unavailable (#{e.message}); " \
                                  "define it in a file, or use worker: :process"
      end

      def self.source(node, predicate)
        lines = File.readlines(predicate.source_location[0])[(node.first_lineno - 1)..(node.last_lineno - 1)]
        lines[-1] = lines[-1].byteslice(0, node.last_column)
        lines[0] = lines[0].byteslice(node.first_column..)
        lines.join
      end

      def self.check_isolated!(node, predicate)
        declared = []
        read = []
        walk(node) do |n|
          declared.concat(n.children[0]) if n.type == :SCOPE
          read << n.children[0] if VARIABLE_READS.include?(n.type)
          read << (n.type == :SELF ? :self : n.children[0]) if SELF_READS.include?(n.type)
        end
        outer = (read - declared).uniq
        return if outer.empty?

        raise NotIsolatableError, "cannot run the property block at #{predicate.source_location.join(':')} " \
                                  "in a ractor: it reads #{outer.join(', ')} from outside the block; " \
                                  "pass values as arbitraries (constant(...)) or use worker: :process"
      end

      def self.walk(node, &visit)
        return unless node.is_a?(RubyVM::AbstractSyntaxTree::Node)

        visit.call(node)
        node.children.each { |c| walk(c, &visit) }
      end

      private_class_method :cache_key, :reevaluate, :self_for, :parse, :source, :check_isolated!, :walk
    end
  end
end
