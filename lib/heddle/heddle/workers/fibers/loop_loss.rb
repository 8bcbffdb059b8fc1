# frozen_string_literal: true

module Heddle
  module Workers
    module Fibers
      # What a {Fibers::Backend} does when the thread its fibers run on ends
      # under them: an item called `Thread.exit` (Ruby ends the fiber, running
      # its ensure blocks, then the thread), or the thread was killed. The
      # item whose fiber saw it fails by {WorkerLoss}; the other fibers are
      # abandoned mid-item by Ruby, so the maps they were running are
      # cancelled with WorkerDiedError (their completed results kept). Then:
      #
      # - a pool on a thread of its own starts a new thread with new fibers,
      #   which serve the queue (and the rest of the interrupted chunk);
      # - a pool on the caller's loop (made inside `Heddle.run`) cannot outlive
      #   that thread: it shuts down and cancels what was queued.
      #
      # Either way the loop's descriptors are closed when the pool's own
      # thread ends, not when the Thread object is collected (pools made and
      # shut down would hold theirs until GC).
      module LoopLoss
        private

        def lost_worker
          @thread ? "the thread of the pool's fibers" : "the thread of the loop the pool's fibers ran on"
        end

        def replacement
          @thread ? "the pool started a new thread for its fibers" : "the pool is shut down"
        end

        # A pool fiber ends: on the caller's loop, while its thread ends under
        # it, the pool goes with it.
        def fiber_ended
          loop_lost if @thread.nil? && !@shutdown && Thread.current.status == "aborting"
        end

        # Runs on the ending thread (ensure blocks), once per loss.
        def loop_lost
          abandon_in_flight
          return restart if @thread

          @shutdown = true
          @queue.close
          cancel_queued
        end

        def abandon_in_flight
          @workers&.each do |worker|
            unwind(worker) if worker.running && @thread.equal?(Thread.current)
            chunk = worker.running or next
            worker.running = nil
            chunk.job.cancel(abandoned_error)
          end
        end

        # A fiber Ruby left suspended mid-item is concluded from the ending
        # thread's root fiber, which unwinds it: its ensure blocks run (a
        # Queue#pop leaves the queue's waiters), and its item is reported
        # precisely by WorkerLoss.
        def unwind(worker)
          evaluation = worker.evaluation
          @unwinding = true
          evaluation.conclude_to(nil) unless evaluation.concluded?
        rescue StandardError # FiberError among them
          nil # not resumable here: its map is cancelled instead
        ensure
          @unwinding = false
        end

        def abandoned_error
          return CancelledError.new("the pool was shut down while items of this map ran") if @shutdown

          WorkerDiedError.new("#{lost_worker} ended (Thread.exit in an item, or the thread was killed) while items " \
                              "of this map ran on it; #{replacement}")
        end

        # Under the lifecycle lock: a shutdown either sees the new thread or
        # stops it from starting.
        def restart
          @lifecycle.synchronize do
            @thread = Workers.thread { run_loop(Thread::Queue.new) } unless @shutdown
          end
        rescue ThreadError
          nil # the process is exiting: Ruby starts no more threads
        end

        # The pool's own loop ends with its thread: close what it holds open.
        def release_loop
          loop = @loop
          return unless loop&.thread.equal?(Thread.current)
          return loop.close if loop.respond_to?(:close) # the loop's own release, where the core offers one

          # Until then, what an EventLoop holds open: its selector and its
          # wake-up pipe (lib/heddle/heddle/loop/event_loop.rb, #reset_wakeup).
          loop.io.clear
          %i[@wake_r @wake_w].each { |name| loop.instance_variable_get(name)&.close }
        end
      end
    end
  end
end
