# frozen_string_literal: true

require "date"
require_relative "../arbitrary"

module Heddle
  module Check
    module Arbitraries
      # Dates (raw: Julian day numbers) or UTC Times (raw: whole seconds since
      # the epoch) in a range; shrink toward 2000-01-01 (or the nearest bound).
      class Date < Arbitrary
        EPOCH = ::Date.new(2000, 1, 1)

        # @param min [::Date, ::Time] lower bound
        # @param max [::Date, ::Time] upper bound
        # @raise [ArgumentError] when min > max or they are not both Dates or both Times
        def initialize(min, max)
          super()
          @time = min.is_a?(::Time)
          unless (@time ? [min, max].all?(::Time) : [min, max].all?(::Date)) && min <= max
            raise ArgumentError, "date/time needs two Dates or two Times with min <= max, " \
                                 "got #{min.inspect}..#{max.inspect}"
          end

          @integers = Integer.new(to_raw(min), to_raw(max))
          @target = to_raw(@time ? EPOCH.to_time.utc : EPOCH).clamp(@integers.min, @integers.max)
        end

        # @see Arbitrary#generate
        def generate(choices, _size)
          choices.integer(@integers.min, @integers.max, @target) { |rng| @integers.fresh(rng, EMPTY) }
        end

        # @see Arbitrary#realize
        def realize(raw) = @time ? ::Time.at(raw).utc : ::Date.jd(raw)

        # @see Arbitrary#plain?
        def plain? = false

        # @return [::String]
        def inspect = @time ? "time" : "date"

        private

        def to_raw(value) = @time ? value.to_i : value.jd
      end
    end
  end
end
