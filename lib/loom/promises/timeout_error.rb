# frozen_string_literal: true

module Loom
  class Promise
    # Raised by {Promise#value!} when the promise is still pending after the
    # given timeout. {Promise#value} returns nil and {Promise#wait} false instead.
    class TimeoutError < Loom::Error
      include Loom::TimeoutError
    end
  end
end
