# frozen_string_literal: true

module Heddle
  module Promises
    # Adds {#to_promise} to concurrent procs' evaluations (included into
    # Heddle::Proc::Evaluation by lib/heddle/heddle/promises.rb), so any thread can wait
    # for an evaluation like for any promise, and await_result from another
    # thread waits that way.
    module EvaluationPromise
      # @return [Heddle::Promise] fulfilled with the evaluation's result, or
      #   rejected with the exception it concluded to
      # @example
      #   Heddle.concurrently { 6 * 7 }.to_promise.value(1) # => 42
      def to_promise
        Heddle::Promise.from(self)
      end

      # await_result from a thread other than the evaluation's, whose
      # awaiters only change on their own thread: waits for a promise the
      # evaluation's loop resolves (a fiber of another loop suspends, a
      # thread parks), so both threads go on meanwhile.
      # @api private
      # @param within [Numeric, nil] checked seconds (negative: look once)
      # @param timeout_result [Object] returned on timeout (TIMEOUT: a TimeoutError)
      # @return [Object] the result (an exception included) or the timeout's
      private def __await_elsewhere__(within, timeout_result)
        awaiter = EvaluationAwaiter.new(promise = Heddle::Promise.new)
        awaiter.attach(self)
        resolved = promise.resolved? || wait_while_loop_lives(promise, awaiter, within)
        return promise.rejected? ? promise.reason : promise.value if resolved

        return timeout_result unless Heddle::Evaluation::TIMEOUT.equal?(timeout_result)

        begin
          raise Heddle::Evaluation::TimeoutError, "evaluation timed out after #{within} second(s)"
        rescue Heddle::Evaluation::TimeoutError => e
          e # raised for its backtrace; await_result raises it
        end
      end

      private

      # Waits for the promise; the owner thread's end strands the awaiter at
      # once (OwnerWatch), so the wait ends with LoopGoneError, not a timeout.
      def wait_while_loop_lives(promise, awaiter, within)
        thread = __loop__.thread
        OwnerWatch.watch(thread, awaiter, self)
        awaiter.strand(self) unless thread.alive? # it ended before the watch began
        promise.wait(within && [within, 0].max)
      ensure
        OwnerWatch.unwatch(thread, awaiter)
      end
    end
  end
end
