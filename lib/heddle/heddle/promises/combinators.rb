# frozen_string_literal: true

module Heddle
  module Promises
    # `Heddle::Promise.all` and `Heddle::Promise.any`: promises made of promises,
    # resolved by callbacks on their sources (no thread or fiber waits).
    module Combinators
      # @param promises [Array<Heddle::Promise>]
      # @return [Heddle::Promise] fulfilled with every value in input order once
      #   all are fulfilled, or rejected with the first rejection
      # @raise [TypeError] if promises is not Enumerable or an element is not a Heddle::Promise
      # @example
      #   Heddle::Promise.all([Heddle::Promise.fulfilled(1), Heddle::Promise.fulfilled(2)]).value # => [1, 2]
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

      # @param promises [Array<Heddle::Promise>] at least one
      # @return [Heddle::Promise] fulfilled with the first value to arrive, or
      #   rejected with {Heddle::Promise::AllRejectedError} if every one is rejected
      # @raise [ArgumentError] if promises is empty (nothing could fulfil it)
      # @raise [TypeError] if promises is not Enumerable or an element is not a Heddle::Promise
      # @example
      #   Heddle::Promise.any([Heddle::Promise.new, Heddle::Promise.fulfilled(:fast)]).value # => :fast
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
              result.try_reject(Heddle::Promise::AllRejectedError.new(promises.map(&:reason)))
            end
          end
        end
        result
      end

      # A promise of a concurrent proc's result, for threads and fibers alike.
      # @param evaluation [Heddle::Proc::Evaluation]
      # @return [Heddle::Promise] fulfilled with the result, or rejected with the
      #   exception the evaluation concluded to
      # @raise [TypeError] if evaluation is not a concurrent proc's evaluation
      # @example
      #   Heddle::Promise.from(Heddle.concurrently { :done }).value(1) # => :done
      def from(evaluation)
        unless evaluation.is_a?(Heddle::Proc::Evaluation)
          raise TypeError, "Promise.from takes a Heddle::Proc::Evaluation (e.g. from Heddle.concurrently), " \
                           "got #{evaluation.inspect[0, 60]}"
        end

        promise = new
        EvaluationAwaiter.new(promise).attach(evaluation)
        promise
      end

      private

      def check_promises(promises, name)
        unless promises.is_a?(Enumerable)
          raise TypeError, "Promise.#{name} takes a list (Enumerable) of Heddle::Promise objects, " \
                           "got #{promises.inspect[0, 60]}"
        end

        promises = promises.to_a
        bad = promises.find { |p| !p.is_a?(Heddle::Promise) }
        return promises unless bad

        raise TypeError, "Promise.#{name} takes Heddle::Promise objects, got #{bad.inspect[0, 60]}; " \
                         "wrap plain values with Heddle::Promise.fulfilled"
      end
    end
  end
end
