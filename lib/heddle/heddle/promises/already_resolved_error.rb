# frozen_string_literal: true

require_relative "../error"

module Heddle
  class Promise
    # Raised by {Promise#fulfill} and {Promise#reject} when the promise is
    # already resolved: a promise resolves once. Call {Promise#reset} first to
    # reuse it, or {Promise#try_fulfill} when losing the race is expected.
    class AlreadyResolvedError < Heddle::Error; end
  end
end
