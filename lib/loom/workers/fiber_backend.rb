# frozen_string_literal: true

module Loom
  module Workers
    # `size` fibers under `Loom.run` (loom's loop with its Fiber::Scheduler
    # installed), taking chunks from one queue. Blocking calls in the block
    # (sleep, pipe and socket IO, Queue#pop, Timeout) suspend only the fiber
    # that makes them, so IO-bound items overlap as they would on threads,
    # for the price of a fiber each.
    #
    # Created inside `Loom.run`, the pool's fibers join that run's loop on
    # the caller's thread: a map or ask from there is a hand-over between
    # fibers, with no thread to wake (the `messages` suite's lockstep rows).
    # Such a pool must be shut down before the run's block ends (Loom.run
    # waits for its fibers). Created anywhere else, the fibers get a thread
    # of the pool's own.
    class FiberBackend < Backend
      # Seconds shutdown(kill: true) waits for the fibers' thread to end.
      KILL_WAIT = 1.0

      private

      def start
        @queue = Thread::Queue.new
        return start_here if Fiber.scheduler.is_a?(Loom::Scheduler)

        started = Thread::Queue.new
        @thread = Thread.new(@queue) { |queue| run_loop(queue, started) }
        outcome = started.pop
        raise outcome if outcome.is_a?(Exception)
      end

      # The pool's thread: its fibers serve the queue until it is closed.
      # A failure to start is handed to the caller of #start, never lost.
      def run_loop(queue, started)
        Thread.current.name = "loom-fibers"
        Loom.run do
          @size.times { Fiber.schedule { serve(queue) } }
          started << true
        end
      rescue Exception => e # rubocop:disable Lint/RescueException -- the pool's creator must hear of it
        started << e
        raise
      end

      # Inside Loom.run: the fibers join the caller's loop.
      def start_here
        @size.times { Fiber.schedule { serve(@queue) } }
      end

      def stop(kill:)
        @queue.close
        cancel_queued if kill
        # Fibers on the caller's loop finish when it next runs; Loom.run waits for them.
        return unless @thread
        return @thread.join unless kill

        @thread.kill
        # Loom.run's ensure waits for its fibers; one blocked for ever in the
        # block cannot be stopped from outside, so do not wait for ever.
        @thread.join(KILL_WAIT)
      end
    end
  end
end
