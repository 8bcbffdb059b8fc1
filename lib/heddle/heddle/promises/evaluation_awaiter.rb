# frozen_string_literal: true

module Heddle
  module Promises
    # Resolves a promise with the result of a concurrent proc's evaluation:
    # registered as one of the evaluation's awaiters (on the evaluation's own
    # thread), it is woken with the result when the evaluation concludes. An
    # exception result rejects the promise, as it would raise in await_result.
    # Behind `Heddle::Promise.from`, {EvaluationPromise#to_promise} and
    # await_result from another thread.
    #
    # From another thread a concluded evaluation's result is read at once:
    # its thread writes the result before it marks it concluded, so no help
    # from that thread's loop is needed (it may be blocked outside heddle).
    class EvaluationAwaiter
      # @param promise [Heddle::Promise] the promise to resolve
      def initialize(promise)
        @promise = promise
      end

      # Waits (without blocking) for the evaluation's result. Safe from any
      # thread: the registration is done by the evaluation's loop.
      # @param evaluation [Heddle::Proc::Evaluation]
      # @return [void]
      def attach(evaluation)
        if !evaluation.concluded? && evaluation.__send__(:__forked_from__)
          return @promise.try_reject(evaluation.__send__(:__forked_error__))
        end

        loop = evaluation.__send__(:__loop__)
        return attach_elsewhere(evaluation, loop) unless Thread.current.equal?(loop.thread)

        if evaluation.concluded?
          __wake__(EvaluationAwaiter.result_of(evaluation))
        else
          evaluation.__send__(:__add_awaiter__, self)
        end
      end

      # Settles the promise of an evaluation whose thread has ended: with
      # its result if it concluded, else with {Heddle::Evaluation::LoopGoneError}.
      # Safe from any thread.
      # @param evaluation [Heddle::Proc::Evaluation]
      # @return [void]
      def strand(evaluation)
        return __wake__(EvaluationAwaiter.result_of(evaluation)) if evaluation.concluded?

        thread = evaluation.__send__(:__loop__).thread
        @promise.try_reject(
          Heddle::Evaluation::LoopGoneError.new(
            "#{evaluation.inspect} will never conclude: its thread (#{thread.inspect}) " \
            "#{EvaluationAwaiter.ending_of(thread)} before running it to the end; start evaluations on a thread " \
            "that waits for them (e.g. in Heddle.run)"
          )
        )
      end

      # @param thread [Thread] a thread that has ended
      # @return [String] how: "ended", or "died with <its exception>"
      def self.ending_of(thread)
        thread.join(0) && "ended"
      rescue Exception => e # rubocop:disable Lint/RescueException -- join re-raises whatever ended the thread
        "died with #{e.class}: #{Heddle::Error.describe(e.message)}"
      end

      # Called by the evaluation with its result.
      # @api private
      # @param result [Object]
      # @return [void]
      private def __wake__(result)
        result.is_a?(Exception) ? @promise.try_reject(result) : @promise.try_fulfill(result)
      end

      # @param evaluation [Heddle::Proc::Evaluation] a concluded evaluation
      # @return [Object] its result, an exception included, without raising
      def self.result_of(evaluation)
        evaluation.await_result { |result| [result] }.first
      end

      private

      def attach_elsewhere(evaluation, loop)
        return __wake__(EvaluationAwaiter.result_of(evaluation)) if evaluation.concluded?
        return strand(evaluation) unless loop.thread.alive?

        loop.deliver(self, :attach, evaluation)
      end
    end
  end
end
