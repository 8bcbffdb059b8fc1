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
            serve(queue)
          end
        end
      end

      def stop(kill:)
        @queue.close
        if kill
          cancel_queued
          @threads.each(&:kill)
        end
        @threads.each(&:join)
      end
    end
  end
end
