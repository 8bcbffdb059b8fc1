# frozen_string_literal: true

module Heddle
  module Concurrently
    # Concurrently's message for a wait that nothing can end, for code that
    # matches it. Prepended to Heddle::EventLoop; the error stays a
    # Heddle::EventLoop::DeadlockError, a Concurrently::Error.
    module DeadlockMessage
      private

      # @raise [Heddle::EventLoop::DeadlockError]
      def raise_deadlock
        raise Heddle::EventLoop::DeadlockError,
              "Infinitely running event loop detected: There are no evaluations scheduled and no IOs to await."
      end
    end
  end
end
