# frozen_string_literal: true

module Loom
  module Check
    module Arbitraries
      # Sequences of commands valid for a model: each command is drawn among
      # those whose precondition holds in the model state reached so far.
      # Shrinks like an array (drop commands, then shrink their arguments),
      # keeping only sequences whose preconditions still all hold.
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
        def generate(rng, size)
          state = @spec.initial_state
          ::Array.new(rng.rand(0..size.clamp(1, @max))) { step(rng, size, state) { |s| state = s } }.compact
        end

        # @see Arbitrary#realize
        def realize(raw) = raw.map { |index, args| [@commands[index].name, args_of(index, args)] }

        # @see Arbitrary#plain?
        def plain? = false

        # @see Arbitrary#shrink
        def shrink(raw)
          candidates = Enumerator.new do |out|
            Array.removals(raw, 0) { |c| out << c }
            raw.each_with_index do |(index, args), i|
              next unless @commands[index].args

              @commands[index].args.shrink(args).each { |a| out << replace_at(raw, i, [index, a]) }
            end
          end
          candidates.lazy.select { |c| valid?(c) }
        end

        # @return [::String]
        def inspect = "commands(#{@commands.map(&:name).join(', ')})"

        private

        def step(rng, size, state)
          applicable = (0...@commands.size).select { |i| @commands[i].applicable?(state) }
          return nil if applicable.empty?

          index = applicable[rng.rand(applicable.size)]
          args = @commands[index].args&.generate(rng, size)
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

        def valid?(raw)
          state = @spec.initial_state
          raw.all? do |index, args|
            values = args_of(index, args)
            ok = @commands[index].applicable?(state, values)
            state = @commands[index].advance(state, values) if ok
            ok
          end
        end
      end
    end
  end
end
