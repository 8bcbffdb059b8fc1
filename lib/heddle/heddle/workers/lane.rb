# frozen_string_literal: true

module Heddle
  module Workers
    # The caller's side of one out-of-thread worker (a process or a ractor):
    # a thread that takes chunks from the pool's queue and hands each
    # unfinished one to #serve, and stops its worker when the queue is
    # closed. Subclasses start the worker in #start_worker, run a chunk in
    # #serve and stop the worker in #stop_worker.
    class Lane
      # @param backend [Backend]
      # @param queue [Thread::Queue] of {Chunk}
      # @param handler [#call]
      # @param item_timeout [Numeric, nil]
      def initialize(backend, queue, handler, item_timeout)
        @backend = backend
        @queue = queue
        @handler = handler
        @item_timeout = item_timeout
        start_worker
        @thread = start_thread
      end

      # @param limit [Numeric, nil] seconds
      # @return [void]
      def join(limit = nil) = @thread.join(limit)

      private

      # In a method of its own: a block made in #initialize would hold the
      # pool's block (its argument) for as long as the thread runs.
      def start_thread = Workers.thread { serve_queue }

      def serve_queue
        nil while serve_next
      ensure
        stop_worker
      end

      # One chunk, in a frame of its own: a lane waiting in the next pop
      # must not hold the last chunk (its job holds the pool's block, and the
      # block often the pool: see Backend#initialize).
      # @return [Boolean] false once the queue is closed
      def serve_next
        chunk = @queue.pop or return false
        serve(chunk) unless chunk.job.finished?
        true
      end
    end
  end
end
