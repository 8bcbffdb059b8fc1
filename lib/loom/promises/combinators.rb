# frozen_string_literal: true

module Loom
  module Promises
    # `Loom::Promise.all` and `Loom::Promise.any`: promises made of promises,
    # resolved by callbacks on their sources (no thread or fiber waits).
    module Combinators
      # @param promises [Array<Loom::Promise>]
      # @return [Loom::Promise] fulfilled with every value in input order once
      #   all are fulfilled, or rejected with the first rejection
      # @raise [TypeError] if an element is not a Loom::Promise
      # @example
      #   Loom::Promise.all([Loom::Promise.fulfilled(1), Loom::Promise.fulfilled(2)]).value # => [1, 2]
      def all(promises)
        promises = check_promises(promises, "all")
        result = new
        return result.fulfill([]) if promises.empty?

        left = promises.size
        lock = Thread::Mutex.new
        promises.each do |promise|
          promise.on_resolve do |source|
            next result.try_reject(source.reason) if source.rejected?

            result.try_fulfill(promises.map(&:peek)) if lock.synchronize { (left -= 1).zero? }
          end
        end
        result
      end

      # @param promises [Array<Loom::Promise>] at least one
      # @return [Loom::Promise] fulfilled with the first value to arrive, or
      #   rejected with {Loom::Promise::AllRejectedError} if every one is rejected
      # @raise [ArgumentError] if promises is empty (nothing could fulfil it)
      # @raise [TypeError] if an element is not a Loom::Promise
      # @example
      #   Loom::Promise.any([Loom::Promise.new, Loom::Promise.fulfilled(:fast)]).value # => :fast
      def any(promises)
        promises = check_promises(promises, "any")
        raise ArgumentError, "Promise.any needs at least one promise; an empty list never fulfils" if promises.empty?

        result = new
        left = promises.size
        lock = Thread::Mutex.new
        promises.each do |promise|
          promise.on_resolve do |source|
            next result.try_fulfill(source.peek) if source.fulfilled?

            if lock.synchronize { (left -= 1).zero? }
              result.try_reject(Loom::Promise::AllRejectedError.new(promises.map(&:reason)))
            end
          end
        end
        result
      end

      # A promise of a concurrent proc's result, for threads and fibers alike.
      # @param evaluation [Loom::Proc::Evaluation]
      # @return [Loom::Promise] fulfilled with the result, or rejected with the
      #   exception the evaluation concluded to
      # @raise [TypeError] if evaluation is not a concurrent proc's evaluation
      # @example
      #   Loom::Promise.from(Loom.concurrently { :done }).value(1) # => :done
      def from(evaluation)
        unless evaluation.is_a?(Loom::Proc::Evaluation)
          raise TypeError, "Promise.from takes a Loom::Proc::Evaluation (e.g. from Loom.concurrently), " \
                           "got #{evaluation.inspect[0, 60]}"
        end

        promise = new
        EvaluationAwaiter.new(promise).attach(evaluation)
        promise
      end

      private

      def check_promises(promises, name)
        promises = promises.to_a
        bad = promises.find { |p| !p.is_a?(Loom::Promise) }
        return promises unless bad

        raise TypeError, "Promise.#{name} takes Loom::Promise objects, got #{bad.inspect[0, 60]}; " \
                         "wrap plain values with Loom::Promise.fulfilled"
      end
    end
  end
end
