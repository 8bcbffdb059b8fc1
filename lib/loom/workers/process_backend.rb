# frozen_string_literal: true

module Loom
  module Workers
    # `size` worker processes, forked once when the pool starts, each fed by
    # a {ProcessLane}. Items and results cross as Marshal data over pipes, in
    # chunks, so a trivial item costs microseconds, not a fork or a round trip.
    class ProcessBackend < Backend
      # Seconds a stopping worker gets to exit before it is killed.
      EXIT_GRACE = 2.0

      @tracked = {}
      @tracked_lock = Mutex.new

      class << self
        # @api private
        # Remembers the parent's ends of a worker's pipes, so that workers
        # forked later close them (else a worker holds another's pipe open
        # and that one never sees end-of-file).
        def track(*ios)
          @tracked_lock.synchronize { ios.each { |io| @tracked[io] = true } }
        end

        # @api private
        def untrack(*ios)
          @tracked_lock.synchronize { ios.each { |io| @tracked.delete(io) } }
        end

        # @api private
        # In a freshly forked worker: closes every other worker's pipes.
        def close_inherited
          @tracked.each_key { |io| io.close unless io.closed? }
          @tracked.clear
        end

        # @api private
        # Waits for a worker to exit, killing it after {EXIT_GRACE} seconds.
        # @return [Process::Status, nil]
        def reap(pid)
          deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + EXIT_GRACE
          loop do
            _, status = Process.waitpid2(pid, Process::WNOHANG)
            return status if status
            break if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

            sleep 0.002
          end
          Process.kill(:KILL, pid)
          Process.waitpid2(pid)[1]
        rescue Errno::ECHILD, Errno::ESRCH
          nil
        end
      end

      # @return [Array<Integer>] the current worker process ids
      def worker_pids = @lanes.map(&:pid)

      private

      def start
        @queue = Thread::Queue.new
        # Collect before forking (what Process.warmup does on 3.3): children
        # then inherit free slots instead of collecting the parent's garbage
        # over copy-on-write pages. Halved the map suite's trivial-item map
        # in a parent holding 2 million strings (docs/workers.md).
        GC.start
        @lanes = Array.new(@size) { ProcessLane.new(self, @queue, @handler, @item_timeout) }
      end

      # Marshal's per-message overhead is small; larger chunks only cost balance.
      def max_chunk = 1024

      def stop(kill:)
        @queue.close
        if kill
          cancel_queued
          @lanes.each(&:kill)
        end
        @lanes.each(&:join)
      end
    end
  end
end
