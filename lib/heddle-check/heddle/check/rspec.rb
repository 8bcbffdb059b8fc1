# frozen_string_literal: true

require "rspec/expectations"
require_relative "../check"
require_relative "statistics_report"

module Heddle
  module Check
    # RSpec helpers: the `hold` matcher and `check_property`. Requiring this
    # file includes them in every example group when RSpec is configured, and
    # prints the checks' labels, targets and health warnings ({Statistics})
    # after the suite.
    #
    # @example
    #   require "heddle/check/rspec"
    #   RSpec.describe "sum" do
    #     let(:prop) { Heddle::Check.property(Heddle::Check.array(Heddle::Check.integer)) { |a| a.sum <= 100 } }
    #     it { expect(prop).not_to hold(seed: 1) }
    #     it { check_property(Heddle::Check.integer) { |x| expect(x + 0).to eq(x) } }
    #   end
    module RSpec
      # The replay line of a failure names these helpers.
      REPLAY = "check_property(..., seed:) / hold(seed:)"

      # Matches a property that holds; its failure message is the check's report.
      class Hold
        # @return [Result, nil] the outcome of the last match
        attr_reader :result

        # @param options [Hash] options of {Heddle::Check.check}
        def initialize(options)
          @options = options
        end

        # @param property [Property]
        # @return [Boolean] whether every run passed
        def matches?(property)
          @result = Heddle::Check.check(property, **@options)
          Heddle::Check::RSpec.report(@result)
          @result.passed?
        end

        # @return [String] the failure report (counterexample, seed, replay line)
        def failure_message = @result.report(replay: REPLAY)

        # @return [String]
        def failure_message_when_negated = "expected a counterexample, but #{@result.report(replay: REPLAY)}"

        # @return [String]
        def description = "hold for all generated values"
      end

      # Gathers a result's statistics under the running example's name.
      # @param result [Result]
      # @return [void]
      def self.report(result)
        example = ::RSpec.current_example if ::RSpec.respond_to?(:current_example)
        StatisticsReport.add(example&.full_description || "(outside an example)", result)
      end

      # @param options [Hash] options of {Heddle::Check.check} (worker:, runs:, seed:, ...)
      # @return [Hold] a matcher: `expect(property).to hold(runs: 500)`
      def hold(**options) = Hold.new(options)

      # Checks a property (given, or built from arbitraries and the block) and
      # fails the example with the counterexample, seed and replay line.
      #
      # @param property_or_arbitraries [Array<Property, Arbitrary>]
      # @param keywords [Hash] options; Arbitrary values are keyword arbitraries
      # @return [Result]
      # @raise [::RSpec::Expectations::ExpectationNotMetError] when the property fails, with a
      #   backtrace that starts at the caller's line (RSpec shows it as the failing line)
      def check_property(*property_or_arbitraries, **keywords, &block)
        property, options = Heddle::Check.split_property_arguments(property_or_arbitraries, keywords, block)
        result = Heddle::Check.check(property, **options)
        Heddle::Check::RSpec.report(result)
        if result.failed?
          raise ::RSpec::Expectations::ExpectationNotMetError, result.report(replay: REPLAY), Backtrace.user(caller)
        end

        result
      end
    end
  end
end

if defined?(RSpec.configure)
  RSpec.configure do |config|
    config.include Heddle::Check::RSpec
    config.after(:suite) { Heddle::Check::StatisticsReport.flush($stdout) }
  end
end
