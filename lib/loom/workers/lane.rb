# frozen_string_literal: true

module Loom
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
        @thread = Thread.new { serve_queue }
      end

      # @param limit [Numeric, nil] seconds
      # @return [void]
      def join(limit = nil) = @thread.join(limit)

      private

      def serve_queue
        while (chunk = @queue.pop)
          serve(chunk) unless chunk.job.finished?
        end
      ensure
        stop_worker
      end
    end
  end
end
