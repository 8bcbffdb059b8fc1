# frozen_string_literal: true

module Loom
  module Promises
    # Resolves a promise with the result of a concurrent proc's evaluation:
    # registered as one of the evaluation's awaiters (on the evaluation's own
    # thread), it is woken with the result when the evaluation concludes. An
    # exception result rejects the promise, as it would raise in await_result.
    # Behind `Loom::Promise.from` and {EvaluationPromise#to_promise}.
    class EvaluationAwaiter
      # @param promise [Loom::Promise] the promise to resolve
      def initialize(promise)
        @promise = promise
      end

      # Waits (without blocking) for the evaluation's result. Safe from any
      # thread: the registration is done by the evaluation's loop.
      # @param evaluation [Loom::Proc::Evaluation]
      # @return [void]
      def attach(evaluation)
        loop = evaluation.__loop__
        return loop.deliver(self, :attach, evaluation) unless Thread.current.equal?(loop.thread)

        if evaluation.concluded?
          __wake__(evaluation.await_result { |result| [result] }.first)
        else
          evaluation.__add_awaiter__(self)
        end
      end

      # Called by the evaluation with its result.
      # @api private
      # @param result [Object]
      # @return [void]
      def __wake__(result)
        result.is_a?(Exception) ? @promise.try_reject(result) : @promise.try_fulfill(result)
      end
    end
  end
end
