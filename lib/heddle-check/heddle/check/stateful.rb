# frozen_string_literal: true

module Heddle
  module Check
    # A model-based (stateful) check: random sequences of commands run
    # against a fresh system under test while a model state predicts what
    # each should do. Build it with {Heddle::Check.stateful}; it is a
    # {Property} and runs with {Heddle::Check.assert} like any other.
    #
    # @example A stack against an Array model
    #   prop = Heddle::Check.stateful(initial: -> { [] }, sut: -> { [] }) do |m|
    #     m.command :push, args: Heddle::Check.integer, run: ->(s, x) { s.push(x) }, next_state: ->(st, x) { st + [x] }
    #     m.command :pop, pre: ->(st) { st.any? }, run: ->(s) { s.pop },
    #                     next_state: ->(st) { st[0...-1] }, post: ->(st, result) { result == st.last }
    #   end
    #   Heddle::Check.assert(prop)
    class Stateful
      # Longest command sequence unless told: long enough to reach most states, short to shrink.
      MAX_COMMANDS = 30

      # Raised when a command's postcondition returns false or nil.
      class PostconditionFailed < StandardError; end

      # @return [Array<Command>]
      attr_reader :commands

      # @param initial [Proc] returns a fresh model state
      # @param sut [Proc] returns a fresh system under test
      # @param cleanup [Proc, nil] called with the system under test after each sequence
      def initialize(initial:, sut:, cleanup: nil)
        @initial = initial
        @sut = sut
        @cleanup = cleanup
        @commands = []
      end

      # Declares a command.
      #
      # @param name [Symbol]
      # @param args [Arbitrary, nil] its arguments (a tuple for several)
      # @param run [Proc] ->(sut, *args) { result }
      # @param pre [Proc, nil] ->(state) or ->(state, *args): may it run?
      # @param next_state [Proc, nil] ->(state, *args) { new state } (nil: unchanged)
      # @param post [Proc, nil] ->(state_before, result, *args): truthy when the result is right
      # @return [Command]
      def command(name, run:, args: nil, pre: nil, next_state: nil, post: nil) # rubocop:disable Metrics/ParameterLists -- the DSL's keywords
        raise ArgumentError, "command #{name.inspect}: args must be an arbitrary, got #{args.inspect}" unless
          args.nil? || args.is_a?(Arbitrary)

        @commands << Command.new(name: name.to_sym, args: args, pre: pre, run: run, next_state: next_state, post: post)
        @commands.last
      end

      # @return [Object] a fresh model state
      def initial_state = @initial.call

      # Runs one sequence against a fresh system under test.
      #
      # @param sequence [Array<(Symbol, Array)>] realized [name, args] pairs
      # @return [true]
      # @raise [PostconditionFailed] when a postcondition does not hold
      def execute(sequence)
        sut = @sut.call
        state = initial_state
        sequence.each { |name, args| state = execute_one(sut, state, name, args) }
        true
      ensure
        @cleanup&.call(sut) if sut
      end

      # @param max_commands [Integer]
      # @return [Property] the property over command sequences
      # @raise [ArgumentError] when no command was declared
      def to_property(max_commands)
        raise ArgumentError, "stateful check declares no command; call m.command in its block" if @commands.empty?

        spec = self
        Property.new([Arbitraries::Commands.new(self, max_commands)], {}, ->(sequence) { spec.execute(sequence) })
      end

      private

      def execute_one(sut, state, name, args)
        command = @commands.find { |c| c.name == name }
        result = command.run.call(sut, *args)
        if command.post && !command.post.call(state, result, *args)
          raise PostconditionFailed, "postcondition of #{name}(#{args.map(&:inspect).join(', ')}) failed: " \
                                     "result #{result.inspect} in model state #{state.inspect}"
        end
        command.advance(state, args)
      end
    end
  end
end
