# frozen_string_literal: true

require "heddle/error"

module Heddle
  module Check
    # Raised by {Heddle::Check.assert} when a property fails. The message holds
    # the seed, the runs, the shrinks, the counterexample (inspect), the error
    # and how to replay; #result has them as data.
    class Failure < Heddle::Error
      # @return [Result]
      attr_reader :result

      # @param result [Result] a failed result
      def initialize(result)
        @result = result
        super()
        set_backtrace(result.error.backtrace) if result.error&.backtrace
      end

      # The report, built when first asked for (a caller that rescues the
      # failure and reads the result does not pay for it).
      # @return [String]
      def message = @message ||= @result.report

      # @return [String] the report
      def to_s = message
    end
  end
end
