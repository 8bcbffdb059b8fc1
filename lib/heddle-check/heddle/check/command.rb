# frozen_string_literal: true

module Heddle
  module Check
    # One command of a stateful check: its arguments' arbitrary, when it may
    # run (pre), what it does to the system under test (run), what it does to
    # the model state (next_state) and what must hold afterwards (post).
    #
    # pre, next_state and post receive the model state first, then the
    # command's arguments; post also receives the command's result:
    # `post.call(state_before, result, *args)` must return truthy.
    Command = Struct.new(:name, :args, :pre, :run, :next_state, :post, keyword_init: true) do
      # @param state [Object] the model state
      # @param args [Array] the command's arguments
      # @return [Boolean] whether the command may run in state
      def applicable?(state, args = nil)
        return true unless pre
        return pre.call(state) if pre.arity == 1 || args.nil?

        pre.call(state, *args)
      end

      # @param state [Object] @param args [Array]
      # @return [Object] the model state after the command
      def advance(state, args) = next_state ? next_state.call(state, *args) : state
    end
  end
end
