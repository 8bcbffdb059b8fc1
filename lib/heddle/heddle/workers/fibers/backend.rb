# frozen_string_literal: true

require_relative "../../loop/yjit_warm_up"
require_relative "../backend"

module Heddle
  module Workers
    module Fibers
      # `size` fibers under `Heddle.run` (heddle's loop with its Fiber::Scheduler
      # installed). Blocking calls in the block (sleep, pipe and socket IO,
      # Queue#pop, Timeout) suspend only the fiber that makes them, so IO-bound
      # items overlap as they would on threads, for the price of a fiber each.
      #
      # Created inside `Heddle.run`, the pool's fibers join that run's loop on
      # the caller's thread; such a pool must be shut down before the run's
      # block ends (Heddle.run waits for its fibers). Created anywhere else, the
      # fibers get a thread of the pool's own.
      #
      # Chunks (maps, submits) go through a `Thread::Queue`, which any thread
      # may fill. A fiber with nothing to do parks itself on the loop's thread
      # in an idle list (an evaluation waiting in `Heddle.await_resume!`); a new
      # chunk wakes one. An {#ask} from a fiber of that same loop skips the
      # queue, the job and the promise: it hands the message to an idle fiber
      # with one `resume!` and waits for the answer with one
      # `Heddle.await_resume!`, allocating nothing (docs/workers.md, "messages").
      class Backend < Workers::Backend
        # Seconds shutdown(kill: true) waits for the fibers' thread to end.
        KILL_WAIT = 1.0

        # One pool fiber: its evaluation, the caller and the pool's block of a
        # direct ask while it handles one (set by the caller on the loop's
        # thread, so no lock), and the chunk it is running.
        Worker = Struct.new(:evaluation, :caller, :handler, :running)

        # The answer to a direct ask when the block raised (the only
        # allocation of that path, on the error path only).
        Failure = Struct.new(:error)
        private_constant :Worker, :Failure

        # {#work} is each pool fiber's body, entered once per fiber: warmed up
        # so that YJIT compiles it.
        WARM_UP = YJITWarmUp.new { allocate.__send__(:work, nil) }

        # Sends one message to an idle fiber and waits for its answer.
        # Asked from a fiber of the pool's loop while a fiber is idle and
        # nothing is queued, it is a direct hand-over; otherwise it falls back
        # on a submitted item and its promise.
        # @param message [Object]
        # @param handler [#call] the pool's block
        # @param timeout [Numeric, nil] seconds (with one, the promise's wait)
        # @return [Object] the block's answer
        # @raise [Exception] the block's error, with #item, #index and #results
        # @raise [Error] when the pool is shut down
        def ask(message, handler, timeout = nil)
          # Hot path (one ask per message, in lockstep): one check per
          # condition, no allocation.
          if timeout.nil? && !@shutdown && Thread.current.equal?(@loop_thread) && @queue.empty? && (worker = @idle.pop)
            return hand_over(worker, message, handler)
          end

          ask_by_promise(message, handler, timeout)
        end

        private

        def start
          @queue = Thread::Queue.new
          return start_here if Fiber.scheduler.is_a?(Heddle::Scheduler)

          started = Thread::Queue.new
          @thread = Workers.thread { run_loop(started) }
          begin
            outcome = started.pop
          ensure
            abandon_start unless outcome # the caller was interrupted: nobody will own the thread
          end
          raise outcome if outcome.is_a?(Exception)
        end

        # Ends the pool's thread whose start its caller stopped waiting for.
        def abandon_start
          @queue.close
          @thread.kill
        end

        # The pool's thread: its fibers serve the queue until it is closed.
        # A failure to start is handed to the caller of #start, never lost.
        # A thread that ends before (an item called Thread.exit) is replaced.
        def run_loop(started)
          Thread.current.name = "heddle-fibers"
          Heddle.run do
            start_here
            started << true
          end
          served = true
        rescue Exception => e # rubocop:disable Lint/RescueException -- the pool's creator must hear of it
          started << e
          raise
        ensure
          release_loop
          loop_lost unless served
        end

        # Inside Heddle.run: the fibers join the caller's loop.
        def start_here
          @loop_thread = Thread.current
          @loop = Fiber.scheduler.loop
          @idle = []
          @workers = []
          WARM_UP.warm if YJITWarmUp.main_ractor?
          @size.times { Fiber.schedule { work(Worker.new(Heddle::Evaluation.current).tap { |w| @workers << w }) } }
        end

        # A pool fiber: chunks from the queue while there are any, else idle
        # until a chunk or a direct ask wakes it; ends once the queue is closed
        # and empty. Without a worker, a warming call (WARM_UP): it does nothing.
        def work(worker) # rubocop:disable Metrics/CyclomaticComplexity -- the warming guard, here to stay in one frame
          return unless worker

          queue = @queue
          idle = @idle
          # rubocop:disable-next Style/InfiniteLoop -- `loop` would cost a block call per message
          while true
            # Only this loop's fibers pop (and, once it is closed, a killing
            # thread): a pop after a non-empty test never waits; at worst it
            # finds the closed queue emptied and answers nil.
            unless queue.empty?
              run_next(queue, worker)
              next
            end
            break if queue.closed?

            idle << worker
            message = Heddle.await_resume!
            answer(worker, worker.caller, message) if worker.caller
          end
        ensure
          idle&.delete(worker)
          fiber_ended if worker
        end

        # One chunk, in a frame of its own: an idle fiber must not hold the
        # last chunk (its job holds the pool's block, and the block often the
        # pool: see Backend#initialize).
        def run_next(queue, worker)
          chunk = queue.pop or return
          worker.running = chunk
          run_chunk(chunk)
        ensure
          worker.running = nil
        end

        # A direct ask, on the caller's side (the loop's thread).
        def hand_over(worker, message, handler)
          worker.handler = handler
          me = worker.caller = Heddle::Evaluation.current
          worker.evaluation.resume!(message)
          answer = wait_for(worker, me)
          return answer unless answer.instance_of?(Failure)

          raise failed(answer.error, message)
        end

        # What a job would make of the block's error (Backend#run_item, Job#value!).
        def failed(error, message)
          Job.decorate(name_item(error, 0, message), [nil], 0, message)
        end

        # A caller interrupted while it waits (Timeout, cancelled) withdraws,
        # so the late answer cannot resume some later wait of its fiber.
        # (An ensure, not a rescue: Timeout.timeout without a class unwinds with throw.)
        def wait_for(worker, asker)
          answered = false
          answer = Heddle.await_resume!
          answered = true
          answer
        ensure
          worker.caller = nil if !answered && worker.caller.equal?(asker)
        end

        # A direct ask, on the pool fiber's side: runs the block and wakes the
        # caller with its answer, unless the caller withdrew meanwhile.
        def answer(worker, caller, message)
          handler = worker.handler
          worker.handler = nil # an idle fiber must not hold the block (see Workers::Backend#initialize)
          result = begin
            call_handler(handler, message, 0)
          rescue Exception => e # rubocop:disable Lint/RescueException -- any error of the block is the caller's
            Failure.new(e)
          end
          return unless worker.caller.equal?(caller)

          worker.caller = nil
          caller.resume!(result) if caller.waiting?
        end

        # A chunk for the queue: from the loop's thread, wake an idle fiber
        # now; from any other, have the loop do it.
        def enqueue(chunk)
          super
          if Thread.current.equal?(@loop_thread)
            wake_one
          else
            @loop.deliver(self, :wake_one, nil)
          end
        end

        # Runs on the loop's thread. An idle fiber re-checks the queue; if a
        # busy one took the chunk first, it finds it empty and idles again.
        def wake_one(_ = nil)
          worker = @idle.pop
          worker&.evaluation&.resume!(nil)
        end

        # Runs on the loop's thread: every idle fiber looks at the (closed)
        # queue and ends.
        def wake_all(_ = nil)
          @idle.pop.evaluation.resume!(nil) until @idle.empty?
        end

        # From a finalizer too (trap context): Queue#close and the loop's
        # inbox take no Mutex.
        def close_queue
          super
          @loop&.deliver(self, :wake_all, nil)
        end

        def stop(kill:)
          @queue.close
          cancel_queued if kill
          if Thread.current.equal?(@loop_thread)
            # Fibers on the caller's loop finish when it next runs; Heddle.run waits for them.
            wake_all
          else
            @loop.deliver(self, :wake_all, nil)
          end
          join_thread(kill)
        end

        def join_thread(kill)
          return unless @thread
          return @thread.join unless kill

          @thread.kill
          # Heddle.run's ensure waits for its fibers; one blocked for ever in the
          # block cannot be stopped from outside, so do not wait for ever.
          @thread.join(KILL_WAIT)
        end

        # What the pool does when the thread its fibers run on ends under
        # them: an item called `Thread.exit` (Ruby ends the fiber, running its
        # ensure blocks, then the thread), or the thread was killed. The item
        # whose fiber saw it fails by Workers::Backend#lost; the other fibers
        # are abandoned mid-item by Ruby, so the maps they were running are
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
        #
        # What ended, for the error message.
        def lost_worker
          @thread ? "the thread of the pool's fibers" : "the thread of the loop the pool's fibers ran on"
        end

        # What the pool does about it, for the error message.
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
        # precisely by Workers::Backend#lost.
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
