# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # Sequences of commands valid for a model: each command is drawn among
      # those whose precondition holds in the model state reached so far
      # (one choice: its index among them), then its arguments. A sequence is
      # a collection of spans ({Choices#collection}), so shrinking drops
      # commands and shrinks arguments; since a replay draws every command
      # among those applicable at that point, every shrunk sequence keeps
      # its preconditions.
      class Commands < Arbitrary
        # @param spec [Stateful] the commands and initial state
        # @param max [Integer] longest sequence
        def initialize(spec, max)
          super()
          @spec = spec
          @commands = spec.commands
          @max = max
        end

        # @see Arbitrary#generate
        def generate(choices, size)
          state = @spec.initial_state
          out = []
          choices.collection(self, 0, @max, choices.random&.rand(0..size.clamp(1, @max))) do
            command = step(choices, size, state) { |s| state = s }
            out << command if command
          end
          out
        end

        # @see Arbitrary#realize
        def realize(raw) = raw.map { |index, args| [@commands[index].name, args_of(index, args)] }

        # @see Arbitrary#plain?
        def plain? = false

        # @return [::String]
        def inspect = "commands(#{@commands.map(&:name).join(', ')})"

        private

        def step(choices, size, state)
          applicable = (0...@commands.size).select { |i| @commands[i].applicable?(state) }
          return nil if applicable.empty?

          index = applicable[choices.integer(0, applicable.size - 1, 0)]
          args = @commands[index].args&.generate(choices, size)
          return nil unless @commands[index].applicable?(state, args_of(index, args))

          yield @commands[index].advance(state, args_of(index, args))
          [index, args]
        end

        def args_of(index, raw)
          arbitrary = @commands[index].args
          return [] unless arbitrary

          value = arbitrary.realize(raw)
          arbitrary.is_a?(Tuple) ? value : [value]
        end
      end
    end
  end
end
