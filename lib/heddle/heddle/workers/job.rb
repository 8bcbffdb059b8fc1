# frozen_string_literal: true

require_relative "item_backtrace"
require_relative "../masked_lock"

module Heddle
  module Workers
    # One map (or one submitted item) in flight: its items, the results and
    # errors as workers report them, and the waiting caller. Any thread may
    # report; the job finishes when every item is accounted for, at the first
    # error under `fail_fast`, or when cancelled (timeout, shutdown). Workers
    # skip the items of a finished job, which is how the rest is cancelled.
    class Job
      # @return [Array] the items, in input order
      attr_reader :items
      # @return [Array] results in input order (nil where none completed)
      attr_reader :results
      # @return [#call, nil] the pool's block while the job is unfinished (a
      #   job in flight keeps its pool alive; a finished one, which a worker
      #   may still hold somewhere on its stack, must not)
      attr_reader :handler

      # @param items [Array]
      # @param handler [#call] the pool's block
      # @param fail_fast [Boolean] finish at the first error
      # @yieldparam job [Job] called once, in the reporting thread, when finished
      def initialize(items, handler, fail_fast: true, &on_finish)
        @items = items
        @handler = handler
        @results = Array.new(items.size)
        @errors = {}
        @pending = items.size
        @fail_fast = fail_fast
        @on_finish = on_finish
        @mutex = MaskedLock.new
        # A map's caller waits on a promise, not a ConditionVariable: Ruby
        # 3.1's ConditionVariable#wait under a Fiber scheduler leaves its
        # mutex unlocked when interrupted, and the caller got ThreadError
        # instead of the interrupt. A submitted item's job has no waiter.
        @done = on_finish ? nil : Heddle::Promise.new
        @finished = false
        finish if @pending.zero?
      end

      # @return [Boolean] whether the job stops at its first error
      def fail_fast? = @fail_fast

      # @return [Boolean] true once no more reports are wanted
      def finished? = @finished

      # Records item index's result.
      # @param index [Integer]
      # @param value [Object]
      # @return [void]
      def complete(index, value)
        report(false) { @results[index] = value }
      end

      # Counts `count` items as completed whose results the reporting worker
      # has already written into {#results} (one worker owns each index, and
      # it writes only while the job is unfinished): one lock per run of
      # items instead of one per item (Backend#run_chunk).
      # @param count [Integer]
      # @return [void]
      def completed(count)
        report(false, count) { nil } if count.positive?
      end

      # Records item index's error; under fail_fast this finishes the job.
      # @param index [Integer]
      # @param error [Exception]
      # @return [void]
      def fail(index, error)
        report(@fail_fast) do
          @errors[index] = error
          @first_error ||= index
        end
      end

      # Finishes the job now with error (a timeout, a shutdown); items not yet
      # reported are skipped by the workers.
      # @param error [Heddle::Workers::Error]
      # @return [void]
      def cancel(error)
        @mutex.synchronize do
          return if @finished

          @abort = error
        end
        finish
      end

      # @param timeout [Numeric, nil] seconds
      # @return [Boolean] true once finished, false on timeout
      def wait(timeout = nil)
        @done.wait(timeout)
      end

      # @return [Integer] how many items have a result
      def completed_count = @items.size - @pending - @errors.size

      # The outcome of a finished job.
      # @return [Array] the results in input order
      # @raise [Exception] the first error (fail_fast), {Errors} (otherwise),
      #   or the cancelling error; each carries #results
      def value!
        raise decorate(@abort, nil) if @abort
        return @results if @errors.empty?
        raise Errors.new(@errors, @results) unless @fail_fast

        raise decorate(@errors[@first_error], @first_error)
      end

      private

      def report(stop, count = 1)
        finish_now = @mutex.synchronize do
          return if @finished

          @pending -= count
          yield
          stop || @pending.zero?
        end
        finish if finish_now
      end

      def finish
        @mutex.synchronize do
          @finished = true
          @handler = nil
        end
        @done&.try_fulfill(true)
        @on_finish&.call(self)
      end

      def decorate(error, index)
        Job.decorate(error, @results, index, index && @items[index])
      end

      class << self
        # Gives an error the results completed so far and, for the block's
        # own errors, the item and index that raised it (a {Workers::Error}
        # names its item already), and the backtrace the caller should see:
        # the caller's frames added, heddle's own dropped ({ItemBacktrace}).
        # Jobs do it in {#value!}; a fiber pool's direct {Pool#ask}, which
        # has no job, does it itself.
        # @param error [Exception]
        # @param results [Array]
        # @param index [Integer, nil] nil: the error is not one item's
        # @param item [Object]
        # @return [Exception] error
        def decorate(error, results, index, item)
          error.extend(PartialResults) unless error.respond_to?(:results=)
          error.results = results
          if index && error.is_a?(PartialResults)
            error.index = index
            error.item = item
            add_caller(error)
          end
          trace(error)
        end

        private

        # heddle's own errors (a dead worker, a timeout) are made, not
        # raised, where the worker noticed: raised from here they would show
        # the map's machinery only, so they get the caller's frames now.
        def trace(error)
          return ItemBacktrace.trim!(error) if error.backtrace
          return error if Heddle::Diagnostics.debug?

          error.set_backtrace(ItemBacktrace.trim(caller(2)))
          error
        end

        # A block's error raised on a worker thread or fiber has that stack's
        # backtrace only: the caller's frames (its `map` line) are appended
        # once, as a thread's join does not. An error raised on the caller's
        # own stack (inline) shares them already.
        def add_caller(error)
          trace = error.backtrace or return
          here = caller(2).drop_while { |line| line.match?(/[`#]decorate'/) }
          return if here.empty? || trace.include?(here.last) || error.instance_variable_defined?(:@heddle_caller)

          error.instance_variable_set(:@heddle_caller, true)
          error.set_backtrace(trace + here)
        end
      end
    end
  end
end
