# frozen_string_literal: true

require "heddle/check"
require_relative "../door_calls"
require_relative "../door_bounds"
require_relative "../load"

module Heddle
  module Soak
    module Loads
      # "Validate at the door": each round checks DoorCalls' property with a
      # fresh seed, so a long soak tries many sequences of good and bad calls,
      # and DoorBounds' properties (sizes, lengths, bounds).
      class Doors < Load
        RUNS = 5

        def name = :doors

        # @param random [Random]
        def round(random)
          result = Heddle::Check.check(DoorCalls.property, runs: RUNS, seed: random.rand(2**32))
          check nil, result.passed? ? nil : result.report, "a sequence of good and bad calls"
          { DoorBounds.sizes_property(count_threads: false) => "a map's size", # other loads start threads
            DoorBounds.generators_property => "a generator's bounds" }.each do |property, what|
            result = Heddle::Check.check(property, runs: RUNS, seed: random.rand(2**32))
            check nil, result.passed? ? nil : result.report, what
          end
        end
      end
    end
  end
end
