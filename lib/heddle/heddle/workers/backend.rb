# frozen_string_literal: true

require "timeout"
require_relative "../masked_lock"

module Heddle
  module Workers
    # What every backend shares: turning a map into a job split in chunks,
    # a submitted item into a promise, waiting with a deadline, and shutting
    # down once. Subclasses start their workers in #start, take chunks with
    # #enqueue and stop in #stop; one that does not take chunks (Redis)
    # hands a whole job on in #dispatch instead.
    class Backend
      # Raised into a running item by the machinery to stop the whole map
      # (an inline map's timeout): an Exception, not a StandardError, so
      # that a block's `rescue => e` lets it pass, and re-raised by the
      # item's rescue instead of being taken for the block's own error.
      class Expired < Exception; end # rubocop:disable Lint/InheritException -- see above

      # @return [Integer] the number of workers
      attr_reader :size

      # The block is the pool's, given to {#start} and then dropped: the
      # pool's workers (threads, fibers, lanes) are GC roots, and the block's
      # binding commonly holds the pool itself (`pool = Heddle::Pool.new { ... }`),
      # so a backend that kept it would keep a dropped pool, and the workers
      # its finalizer stops, alive for ever. Each map, submit and ask brings
      # the block along (in its {Job}, or as an argument).
      # @param size [Integer]
      # @param handler [#call] the pool's block
      # @param item_timeout [Numeric, nil] seconds allowed per item
      def initialize(size:, handler:, item_timeout: nil)
        @size = size
        @handler = handler
        @item_timeout = item_timeout
        @owner = Process.pid
        @shutdown = false
        @lifecycle = MaskedLock.new
        start
        @handler = nil
      end

      # @param items [Array]
      # @param handler [#call] the pool's block
      # @param timeout [Numeric, nil] seconds for the whole map
      # @param fail_fast [Boolean]
      # @return [Array] results in input order
      def map(items, handler, timeout: nil, fail_fast: true)
        job = Job.new(items, handler, fail_fast: fail_fast)
        dispatch(job, timeout)
        job.cancel(map_timeout(job, timeout)) unless job.wait(timeout)
        job.value!
      end

      # @param item [Object]
      # @param handler [#call] the pool's block
      # @param promise [#fulfill, #reject]
      # @return [void]
      def submit(item, handler, promise)
        job = Job.new([item], handler) do |done|
          promise.fulfill(done.value!.first)
        rescue Exception => e # rubocop:disable Lint/RescueException -- the promise carries any error
          promise.reject(e)
        end
        dispatch(job, nil)
      end

      # Stops the workers once; later calls do nothing.
      # @param kill [Boolean] drop queued items and stop at once (GC, exit)
      # @return [void]
      def shutdown(kill: false)
        return if Process.pid != @owner # a forked copy: the workers are not ours

        @lifecycle.synchronize do
          return if @shutdown

          @shutdown = true
        end
        stop(kill: kill)
      end

      # Lets the workers finish the queued items and stop by themselves,
      # without locking or waiting: safe from a finalizer (trap context).
      # @return [void]
      def release
        return if Process.pid != @owner || @shutdown

        @shutdown = true
        close_queue
      end

      # @return [Boolean]
      def shutdown? = @shutdown

      # @return [Array<Integer>] the worker process ids (empty unless processes)
      def worker_pids = []

      private

      def start; end

      # Hands a job (a map's, or a submitted item's) to the workers: the one
      # step a backend that is not fed chunks overrides (Redis::Backend).
      def dispatch(job, _timeout)
        Chunk.split(job, @size, max: max_chunk).each { |chunk| enqueue(chunk) }
      end

      def map_timeout(job, timeout)
        TimeoutError.new("map of #{job.items.size} items did not finish within #{timeout} s " \
                         "(#{job.completed_count} completed); raise timeout: or split the work")
      end

      # Queue-fed backends: a worker takes the chunk from @queue.
      def enqueue(chunk)
        ensure_running!
        @queue << chunk
      end

      def stop(kill:); end

      # Cancels the chunks still queued (the queue is closed): shutdown(kill: true).
      def cancel_queued
        cancel_chunk(@queue.pop, "the pool was shut down") until @queue.empty?
      end

      def close_queue
        @queue&.close
      end

      # The largest chunk handed to one worker at once.
      def max_chunk = 256

      def ensure_running!
        raise Error, "the pool is shut down; create a new Heddle::Pool" if @shutdown
        return unless Process.pid != @owner && !survives_fork?

        raise Error, "this #{self.class.name.split('::').last.delete_suffix('Backend').downcase} pool belongs to " \
                     "process #{@owner}: its workers did not follow the fork into process #{Process.pid}; " \
                     "create a new Heddle::Pool here"
      end

      # Whether the pool works in a forked copy of its process: its workers
      # are threads, fibers or lanes, which a fork does not copy.
      def survives_fork? = false

      # Runs a chunk's items in this thread or fiber. A chunk of consecutive
      # items without an item timeout takes the fast path, {#run_span}. A
      # worker that ends under an item reports it from the ensure
      # (#lost): position is left set only then.
      def run_chunk(chunk)
        job = chunk.job
        return run_span_by_span(job, chunk.from, chunk.to) unless chunk.list || @item_timeout

        handler = job.handler
        indices = chunk.indices.to_a
        position = 0
        while position < indices.size && !job.finished?
          run_item(job, handler, indices[position])
          position += 1
        end
        position = nil
      ensure
        lost(job, indices[position], Chunk.of(job, indices[(position + 1)..])) if position
      end

      # Runs items from...to span by span: a span ends at an item that
      # raised (reported by #run_span), and the next starts after it unless
      # that finished the job (fail_fast).
      def run_span_by_span(job, from, to)
        from = run_span(job, from, to) + 1 while from < to && !job.finished?
      end

      # Hot path (warm maps of trivial items; docs/workers.md): a tight loop
      # that writes each result straight into the job's array and counts the
      # run once, with {Job#completed}, not a method, a block and a Mutex per
      # item. A result is written only while the job is unfinished, so a
      # cancelled map's results stay what they were, and completed results
      # are visible to a map timeout as they come.
      # Only a worker ending under an item (Thread.exit) leaves `reported`
      # false for the ensure (#lost).
      # @return [Integer] the index of the item that raised, or where it stopped
      def run_span(job, index, to)
        start = index
        items = job.items
        results = job.results
        handler = job.handler or return to # finished meanwhile
        reported = false
        while index < to
          value = handler.call(items[index])
          break if job.finished?

          results[index] = value
          index += 1
        end
        reported = true
        job.completed(index - start)
        index
      rescue Exception => e # rubocop:disable Lint/RescueException -- any error of the block is the item's
        reported = true
        span_failed(job, start, index, e)
      ensure
        span_lost(job, start, index, to) unless reported
      end

      # @return [Integer] index
      def span_failed(job, start, index, error)
        job.completed(index - start) # before the failure, which may finish the job
        raise error if error.instance_of?(Expired)

        job.fail(index, item_error(job, index, error))
        index
      end

      def span_lost(job, start, index, to)
        job.completed(index - start)
        lost(job, index, index + 1 < to ? Chunk.new(job, index + 1, to) : nil)
      end

      def run_item(job, handler, index)
        job.complete(index, call_handler(handler, job.items[index], index))
      rescue Exception => e # rubocop:disable Lint/RescueException -- any error of the block is the item's
        raise if e.instance_of?(Expired)

        job.fail(index, item_error(job, index, e))
      end

      # A heddle error raised for an item (its timeout, ...) that does not name
      # the item yet is given its index and item, as the block's own errors are.
      # @return [Exception] error
      def name_item(error, index, item)
        if error.is_a?(Error) && error.index.nil?
          error.index = index
          error.item = item
        end
        error
      end

      # An ask answered the general way: a submitted item and its promise
      # (what the fiber and thread pools fall back on).
      def ask_by_promise(message, handler, timeout)
        promise = Workers.new_promise
        submit(message, handler, promise)
        promise.value!(timeout)
      end

      def call_handler(handler, item, index)
        return handler.call(item) unless @item_timeout

        message = "item #{Error.describe(item)} (index #{index}) took longer than #{@item_timeout} s"
        Timeout.timeout(@item_timeout, TimeoutError, message) { handler.call(item) }
      end

      def cancel_chunk(chunk, why)
        chunk.job.cancel(CancelledError.new("#{why}; #{chunk.size} queued items did not run"))
      end

      # What an in-process backend does when a worker ends under an item:
      # the block called `Thread.exit`, or the worker's thread was killed
      # (`shutdown(kill: true)`, a `Thread#kill` from outside). Ruby runs the
      # item's ensure blocks but no rescue, so without this the item would
      # never be reported and its map (or promise) would wait for ever.
      #
      # The item fails (WorkerDiedError, or CancelledError once the pool is
      # shut down), the rest of its chunk goes back to the queue for the other
      # workers, and the backend replaces the worker (see Threads::Backend,
      # Fibers::Backend).
      #
      # @param job [Job]
      # @param index [Integer] the item that was running
      # @param rest [Chunk, nil] the chunk's items after it
      # @return [void]
      def lost(job, index, rest)
        job.fail(index, lost_error(job, index))
        requeue(rest) if rest&.size&.positive? && !job.finished?
      end

      def lost_error(job, index)
        item = job.items[index]
        what = "item #{Error.describe(item)} (index #{index})"
        if @shutdown
          CancelledError.new("the pool was shut down while running #{what}", item: item, index: index)
        elsif @unwinding
          WorkerDiedError.new("#{what} was running when #{lost_worker} ended (Thread.exit in another item, or the " \
                              "thread was killed); #{replacement}", item: item, index: index)
        else
          WorkerDiedError.new("#{what} ended #{lost_worker} (Thread.exit in the block, or the thread was killed); " \
                              "#{replacement}", item: item, index: index)
        end
      end

      # The error an item's rescue reports: the block's own, or, while the
      # backend unwinds a worker its thread left behind (Fibers::Backend#unwind), the loss.
      def item_error(job, index, error)
        return lost_error(job, index) if @unwinding

        name_item(error, index, job.items[index])
      end

      # What ended, for the error message.
      def lost_worker = "its worker thread"

      # What the pool does about it, for the error message.
      def replacement = "the pool started a new one"

      def requeue(chunk)
        @queue << chunk
      rescue ClosedQueueError
        cancel_chunk(chunk, "the pool was shut down")
      end
    end
  end
end
