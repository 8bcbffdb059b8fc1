# frozen_string_literal: true

require "heddle/check"
require_relative "../door_calls"

module Heddle
  module Soak
    module Loads
      # "Validate at the door": each round checks DoorCalls' property with a
      # fresh seed, so a long soak tries many sequences of good and bad calls.
      class Doors < Load
        RUNS = 5

        def name = :doors

        # @param random [Random]
        def round(random)
          result = Heddle::Check.check(DoorCalls.property, runs: RUNS, seed: random.rand(2**32))
          check nil, result.passed? ? nil : result.report, "a sequence of good and bad calls"
        end
      end
    end
  end
end
