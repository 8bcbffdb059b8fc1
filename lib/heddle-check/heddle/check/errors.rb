# frozen_string_literal: true

require "heddle/error"

module Heddle
  module Check
    # An error of the checking machinery itself, never of the property: a
    # block that cannot be isolated in a ractor, a filter that rejects
    # everything, an option out of range. Raised at once, never shrunk.
    class HarnessError < Heddle::Error; end

    # A filter rejected every value it was offered within its attempt limit.
    class FilterExhaustedError < HarnessError; end

    # A property block cannot run in a ractor (it reads outer variables or its
    # source cannot be found).
    class NotIsolatableError < HarnessError; end

    # The whole check ran longer than its `timeout:`.
    class TimeoutError < HarnessError
      include Heddle::TimeoutError
    end

    # Raised in place of a property's return value `false`, so that a boolean
    # property fails like one that raises.
    class PropertyFalse < StandardError; end
  end
end
