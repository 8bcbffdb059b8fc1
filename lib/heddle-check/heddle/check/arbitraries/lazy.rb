# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # An arbitrary built on first use by a block, so that an arbitrary can
      # refer to itself: recursive values such as trees and expressions.
      #
      # The recursion has a size bound: each fresh value counts the lazy nodes
      # it draws, and past the run's size a node is drawn in leaf
      # mode ({Choices#leaves}: first branches, shortest collections), which
      # ends it in its first branch (put the base case first, as in
      # `one_of(leaf, node)`). A replay has no bound: it reads the recorded
      # choices, and past their end draws simplest values, first branches too. Every draw of
      # one lazy is a span with one label, so the shrinker can replace a node
      # by a node nested in it.
      class Lazy < Arbitrary
        # Nesting beyond the size before deciding that the first branch never
        # ends the recursion (a Ruby stack holds a few thousand levels).
        RUNAWAY = 200

        # @param block [Proc] returns the Arbitrary
        # @param label [Object] the spans' label (default: where the block is written)
        def initialize(block, label = nil)
          super()
          raise ArgumentError, "lazy needs a block returning an arbitrary" unless block

          @block = block
          @label = label || block.source_location || self
        end

        # @return [Arbitrary] the block's arbitrary (built once)
        # @raise [TypeError] when the block returns no arbitrary
        def arbitrary
          @arbitrary ||= begin
            built = @block.call
            raise TypeError, "lazy block must return a Heddle::Check::Arbitrary, got #{built.inspect}" unless
              built.is_a?(Arbitrary)

            built
          end
        end

        # @see Arbitrary#generate
        # @raise [HarnessError] when the simplest branch recurses without end
        def generate(choices, size)
          choices.nested do |depth|
            if depth > size + RUNAWAY
              raise HarnessError, "#{inspect}: the recursion never ends in its first branch; put the base case " \
                                  "first (one_of(leaf, node), frequency([w, leaf], ...))"
            end
            draw(choices, size)
          end
        end

        # @see Arbitrary#realize
        def realize(raw) = arbitrary.realize(raw)

        # @see Arbitrary#plain?
        def plain? = false

        # @return [::String]
        def inspect = "lazy(#{@label.is_a?(::Array) ? @label.join(':') : @label.class})"

        private

        def draw(choices, size)
          return choices.span(@label) { arbitrary.generate(choices, size) } if !choices.fresh? || choices.node! <= size

          choices.leaves { choices.span(@label) { arbitrary.generate(choices, size) } }
        end
      end
    end
  end
end
