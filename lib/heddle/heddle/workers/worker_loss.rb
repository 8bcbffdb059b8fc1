# frozen_string_literal: true

module Heddle
  module Workers
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
    module WorkerLoss
      private

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
      # backend unwinds a worker its thread left behind (Fibers::LoopLoss), the loss.
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
