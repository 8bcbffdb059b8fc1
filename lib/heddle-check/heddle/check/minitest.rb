# frozen_string_literal: true

require "minitest"
require_relative "../check"
require_relative "statistics_report"

module Heddle
  module Check
    # `assert_property` for Minitest. Include it in a test class (or in
    # Minitest::Test to have it everywhere).
    #
    # @example
    #   require "heddle/check/minitest"
    #   class SumTest < Minitest::Test
    #     include Heddle::Check::Minitest
    #     C = Heddle::Check
    #
    #     def test_addition_commutes
    #       assert_property(C.integer, C.integer, runs: 200) { |a, b| assert_equal a + b, b + a }
    #     end
    #   end
    #
    # Labels, targets and health warnings ({Statistics}) are printed after
    # the run's summary, one line per check that has any.
    module Minitest
      # The replay line of a failure names this helper.
      REPLAY = "assert_property(..., seed:)"

      # Checks a property (given, or built from arbitraries and the block) and
      # fails the test with the counterexample, seed and replay line.
      #
      # @param property_or_arbitraries [Array<Property, Arbitrary>] a Property, or the arbitraries of one
      # @param keywords [Hash] options of {Heddle::Check.check}; Arbitrary values are keyword arbitraries
      # @return [Result] the passed result
      # @raise [::Minitest::Assertion] when the property fails, with a backtrace that starts at the caller's line
      def assert_property(*property_or_arbitraries, **keywords, &block)
        property, options = Heddle::Check.split_property_arguments(property_or_arbitraries, keywords, block)
        self.assertions += 1
        result = Heddle::Check.check(property, **options)
        StatisticsReport.add("#{self.class.name}##{name}", result)
        raise ::Minitest::Assertion, result.report(replay: REPLAY), Backtrace.user(caller) if result.failed?

        result
      end
    end
  end
end

Minitest.after_run { Heddle::Check::StatisticsReport.flush($stdout) }
