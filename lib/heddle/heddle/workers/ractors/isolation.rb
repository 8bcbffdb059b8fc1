# frozen_string_literal: true

require_relative "block_source"
require_relative "../../masked_lock"

module Heddle
  module Workers
    module Ractors
      # Makes a block shareable so that ractors can run it: one rule for a
      # ractor pool's block ({Backend.shareable!}) and a ractor check's
      # property (Heddle::Check::Isolation).
      #
      # A block Ractor.make_shareable takes is used as it is. One it refuses
      # (most often: its self, such as a script's `main` or a test, is not
      # shareable) is evaluated again from its source with another self (nil
      # unless the caller names one), the semantics of `Ractor.new`'s block:
      # no outer variables, no outer self. Its source is checked first, so a
      # block that reads an outer variable, an instance or class variable or
      # `self` is refused by name instead of silently reading nil.
      module Isolation
        # The block cannot be isolated: #outer names what it reads from
        # outside (empty when its source could not be placed: #reason).
        class Refused < StandardError
          # @return [Array<Symbol>] outer names it reads (empty when unplaced)
          attr_reader :outer
          # @return [String] "file:line" of the block, or "an unknown place"
          attr_reader :where
          # @return [String] why Ractor.make_shareable refused the block
          attr_reader :refusal

          # @param message [String]
          # @param where [String]
          # @param refusal [String]
          # @param outer [Array<Symbol>]
          def initialize(message, where:, refusal:, outer: [])
            super(message)
            @where = where
            @refusal = refusal
            @outer = outer
          end
        end

        # Blocks rebuilt, by source position and self: a block literal
        # evaluated again (a property built in every test, a map in a loop)
        # is parsed once.
        @cache = {}
        @cache_lock = MaskedLock.new

        module_function

        # @param block [Proc]
        # @param self_object [Object] shareable: self of a block rebuilt from its source
        # @return [Proc] a shareable Proc with the block's behaviour
        # @raise [Refused] when it reads outer state, or its source cannot be placed
        def shareable(block, self_object: nil)
          Ractor.make_shareable(block)
        rescue Ractor::Error, ArgumentError => e # IsolationError is a Ractor::Error
          rebuilt(block, self_object, e.message)
        end

        def rebuilt(block, self_object, refusal)
          key = cache_key(block, self_object)
          cached = key && @cache_lock.synchronize { @cache[key] }
          return cached if cached

          isolated = evaluate(placed(block, refusal), self_object, refusal)
          @cache_lock.synchronize { @cache[key] = isolated } if key
          isolated
        end

        # [file, mtime, exact code location, self], or nil when unknown.
        def cache_key(block, self_object)
          file = block.source_location&.first
          location = BlockSource.code_location(block)
          return unless file && location && File.file?(file)

          [file, File.mtime(file), location, self_object]
        end

        def placed(block, refusal)
          placed = BlockSource.of(block)
          return placed if placed.outer.empty?

          where = "#{placed.file}:#{placed.line}"
          raise Refused.new("the block at #{where} reads #{placed.outer.join(', ')} from outside itself",
                            where: where, refusal: refusal, outer: placed.outer)
        rescue BlockSource::Unplaceable => e
          where = block.source_location&.join(":") || "an unknown place"
          raise Refused.new("the source of the block at #{where} cannot be placed: #{e.message}",
                            where: where, refusal: refusal)
        end

        # At the block's own file and line, so that backtraces point at the user's code.
        def evaluate(placed, self_object, refusal)
          Ractor.make_shareable(self_object.instance_eval(placed.code, placed.file, placed.line))
        rescue Ractor::Error, ArgumentError => e
          where = "#{placed.file}:#{placed.line}"
          raise Refused.new("the block at #{where}, rebuilt, is still refused: #{e.message}",
                            where: where, refusal: refusal)
        end

        private_class_method :rebuilt, :cache_key, :placed, :evaluate
      end
    end
  end
end
