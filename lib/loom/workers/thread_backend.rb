# frozen_string_literal: true

module Loom
  module Workers
    # `size` threads taking chunks from one queue per pool. Threads share the
    # GVL, so this helps IO-bound and C-extension work, not pure Ruby CPU work.
    class ThreadBackend < Backend
      private

      def start
        @queue = Thread::Queue.new
        @threads = Array.new(@size) do |i|
          Thread.new(@queue) do |queue|
            Thread.current.name = "loom-worker-#{i}"
            while (chunk = queue.pop)
              run_chunk(chunk)
            end
          end
        end
      end

      def enqueue(chunk)
        ensure_running!
        @queue << chunk
      end

      def stop(kill:)
        @queue.close
        if kill
          cancel_chunk(@queue.pop, "the pool was shut down") until @queue.empty?
          @threads.each(&:kill)
        end
        @threads.each(&:join)
      end
    end
  end
end
