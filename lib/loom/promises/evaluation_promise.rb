# frozen_string_literal: true

module Loom
  module Promises
    # Adds {#to_promise} to concurrent procs' evaluations (included into
    # Loom::Proc::Evaluation by lib/loom/promises.rb), so any thread can wait
    # for an evaluation like for any promise.
    module EvaluationPromise
      # @return [Loom::Promise] fulfilled with the evaluation's result, or
      #   rejected with the exception it concluded to
      # @example
      #   Loom.concurrently { 6 * 7 }.to_promise.value(1) # => 42
      def to_promise
        Loom::Promise.from(self)
      end
    end
  end
end
