# frozen_string_literal: true

require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # Floats: edge values (0.0, -0.0, ±1.0, ±Infinity, ±Float::MAX,
      # Float::MIN, Float::EPSILON, NaN when asked) one draw in EDGE_ODDS,
      # else a random sign and magnitude over many orders of magnitude.
      # One choice each; shrinks toward 0.0 (or the bound nearest it): first
      # to integral values, then as integers.
      class Float < Arbitrary
        EDGE_ODDS = 6
        EDGES = [0.0, -0.0, 1.0, -1.0, ::Float::INFINITY, -::Float::INFINITY, ::Float::MAX, -::Float::MAX,
                 ::Float::MIN, ::Float::EPSILON].freeze
        # @param min [Numeric] lower bound (default -Infinity)
        # @param max [Numeric] upper bound (default Infinity)
        # @param nan [Boolean] whether NaN may be generated
        # @raise [TypeError] when min or max is not a real number
        # @raise [ArgumentError] when min > max, or either is NaN
        def initialize(min: -::Float::INFINITY, max: ::Float::INFINITY, nan: false)
          super()
          Float.bound!(:min, min)
          Float.bound!(:max, max)
          raise ArgumentError, "float needs min <= max, got min: #{min.inspect}, max: #{max.inspect}" unless min <= max

          @min = min.to_f
          @max = max.to_f
          @target = 0.0.clamp(@min, @max)
          @edges = EDGES.grep(@min..@max) + [@min, @max].select(&:finite?)
          @nan = nan
          @edges << ::Float::NAN if nan
        end

        # @see Arbitrary#generate
        def generate(choices, _size)
          choices.float(@min, @max, @target, nan: @nan) do |rng|
            next @edges[rng.rand(@edges.size)] if rng.rand(EDGE_ODDS).zero?

            value = rng.rand * (10.0**rng.rand(-6..12)) * (rng.rand(2).zero? ? 1 : -1)
            value.clamp(@min, @max)
          end
        end

        # @param name [Symbol] the keyword, for the message
        # @param value [Object]
        # @return [void]
        # @raise [TypeError, ArgumentError] unless a real number other than NaN
        def self.bound!(name, value)
          unless value.is_a?(Numeric) && value.real?
            raise TypeError, "float: #{name}: must be a real number, got #{value.inspect} (#{value.class})"
          end
          raise ArgumentError, "float: #{name}: must not be NaN" if value.to_f.nan?
        end

        # @return [String]
        def inspect = "float(#{@min}..#{@max})"
      end
    end
  end
end
