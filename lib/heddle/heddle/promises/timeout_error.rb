# frozen_string_literal: true

require_relative "../error"

module Heddle
  class Promise
    # Raised by {Promise#value!} when the promise is still pending after the
    # given timeout. {Promise#value} returns nil and {Promise#wait} false instead.
    class TimeoutError < Heddle::Error
      include Heddle::TimeoutError
    end
  end
end
