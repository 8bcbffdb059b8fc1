# frozen_string_literal: true

require_relative "../error"

module Heddle
  class Promise
    # The rejection of `Promise.any` when every one of its promises was
    # rejected. {#errors} holds their errors in the order of the promises.
    class AllRejectedError < Heddle::Error
      # @return [Array<Exception>] the errors of the rejected promises, in input order
      attr_reader :errors

      # @param errors [Array<Exception>] the errors, in input order
      def initialize(errors)
        @errors = errors
        super("all #{errors.size} promises were rejected; first error: #{errors.first.inspect}")
      end
    end
  end
end
