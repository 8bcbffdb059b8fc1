# frozen_string_literal: true

require_relative "../../masks"
require_relative "../item_backtrace"
require_relative "../lane"

require "io/wait"

module Heddle
  module Workers
    module Processes
      # The parent's side of one worker process: a thread that takes chunks
      # from the pool's queue, sends them down a pipe, reads each result as it
      # comes, and when the process dies (or overruns its item timeout) reports
      # the item it was running, requeues the rest and forks a replacement.
      class Lane < Workers::Lane
        # Extra seconds past item_timeout before the parent kills a worker that
        # did not time out by itself (stuck in C code, signals blocked).
        KILL_GRACE = 1.0

        # @return [Integer, nil] the current worker process id (nil until a lazy lane forks)
        attr_reader :pid

        # @param backend [Processes::Backend]
        # @param queue [Thread::Queue] of {Chunk}
        # @param handler [#call]
        # @param item_timeout [Numeric, nil]
        # @param dormant [Boolean] (lazy pools) wait to be woken before taking chunks
        def initialize(backend, queue, handler, item_timeout, dormant: false)
          @dormant = dormant
          @alive = false
          backend.adopt(self)
          super(backend, queue, handler, item_timeout)
        end

        # Kills the worker process now (shutdown with kill: true) and hands it
        # to the reaper thread (see Processes::Backend.reap_later).
        # @return [void]
        def kill
          Processes::Backend.spawning do # so that no fork of this lane can follow (see #spawn)
            @killed = true
            next unless @alive

            terminate
            hand_to_reaper
            close_pipes unless @thread # a start cut short: no lane thread will reap and close them
          end
        end

        private

        def terminate
          Process.kill(:KILL, @pid) if @alive
        rescue Errno::ESRCH
          nil
        end

        # Eager pools fork here, in Pool.new; lazy ones at their first chunk.
        # The lane lets go of the block now: its thread must not keep the pool
        # alive (see Backend#initialize); later forks take the block of the
        # job at hand.
        def start_worker
          handler = @handler
          @handler = nil
          spawn(handler) unless @backend.lazy?
        end

        # A dormant lane (lazy pools) waits until chunks wait with no started
        # worker free to take them; if the pool stops first it never forks.
        def serve_queue
          return if @dormant && !@backend.await_turn

          super
        end

        # Forks a worker with fresh pipes (at start, and to replace a dead one).
        # One fork at a time (Processes::Backend.spawning), the child-side ends
        # closed in the parent before the next fork.
        # @param handler [#call] the pool's block
        # @return [Boolean] false when the pool was killed meanwhile (no fork then)
        def spawn(handler)
          # Pipes, fork and the note that a child runs are one step for an
          # interrupt, or a child or pipe could be left that #kill does not
          # know of (the child takes interrupts again: Child#run).
          Processes::Backend.spawning do
            next false if @killed || handler.nil? # killed, or the job finished meanwhile

            Thread.handle_interrupt(Masks::UNINTERRUPTED) { fork_with_pipes(handler) }
          end
        end

        def fork_with_pipes(handler)
          requests, @to_child = IO.pipe
          @from_child, results = IO.pipe
          [requests, @to_child, @from_child, results].each(&:binmode)
          Processes::Backend.track(@to_child, @from_child)
          @results = WireReader.new(@from_child)
          fork_child(handler, requests, results)
          true
        end

        def fork_child(handler, requests, results)
          @pid = Process.fork { run_child(handler, requests, results) }
          @alive = true
        rescue SystemCallError
          close_pipes # a failed fork (EAGAIN, ENOMEM) leaves no pipe open
          raise
        ensure
          requests.close
          results.close
        end

        # A lazy lane's first fork, in its own thread. A failed fork (EAGAIN,
        # ENOMEM) must fail the chunk's items, not end the thread and leave the
        # map waiting; after shutdown(kill: true) the lane forks no more.
        # @return [Boolean] whether a worker now runs
        def start_lazily(job, indices)
          return true if spawn(job.handler)

          fail_all(job, indices) { |what| CancelledError.new("the pool was shut down before #{what} ran") }
        rescue SystemCallError => e
          fail_all(job, indices) do |what|
            WorkerDiedError.new("could not fork a worker process for #{what}: #{e.message}")
          end
        end

        # Fails every index with the error the block makes from its description.
        # @return [false]
        def fail_all(job, indices)
          indices.each do |index|
            item = job.items[index]
            error = yield("item #{Error.describe(item)} (index #{index})")
            error.item = item
            error.index = index
            job.fail(index, error)
          end
          false
        end

        def run_child(handler, requests, results)
          Processes::Backend.close_inherited
          Processes::Child.new(requests, results, handler, @item_timeout).run
        ensure
          $stdout.flush
          $stderr.flush
          Process.exit!(0) # never run the parent's at_exit hooks (minitest, heddle's own)
        end

        def serve(chunk)
          job = chunk.job
          indices, payload = Processes::Codec.pack(chunk, job)
          return if indices.empty?

          return unless @alive || start_lazily(job, indices)
          return collect(job, indices) if sent?(job, payload)

          died(job, indices, 0, nil)
        end

        # The worker died while idle (its end of the pipe was closed before
        # the chunk was sent): none of the chunk's items ran, so none fails;
        # a new worker takes the chunk.
        # @return [Boolean] whether a new worker runs
        def replace_idle(job)
          handler = job.handler
          reap
          !@backend.shutdown? && spawn(handler)
        end

        # Sends the chunk to the worker, or to a new one when it died while idle.
        def sent?(job, payload)
          (!ended_while_idle? && send_work(payload)) || (replace_idle(job) && send_work(payload))
        end

        # Whether the worker is already gone before a chunk is sent (killed while
        # idle). A write to its pipe does not always say so: EPIPE needs every
        # copy of the pipe's read end closed, and a process forked elsewhere
        # meanwhile may hold one. One waitpid(WNOHANG) per chunk.
        def ended_while_idle?
          _, status = Process.waitpid2(@pid, Process::WNOHANG)
          @ended = status
          !status.nil?
        rescue Errno::ECHILD
          true
        end

        def send_work(payload)
          Wire.write(@to_child, Wire::WORK, payload)
          true
        rescue Errno::EPIPE, IOError
          false
        end

        def collect(job, indices)
          done = 0
          last_error = nil
          loop do
            message = receive
            return died(job, indices, done, message) if message.nil? || message == :timeout

            kind, payload = message
            return finish_early(job, indices, done, last_error) if kind == Wire::DONE

            last_error = deliver(job, indices[done], kind, payload)
            done += 1
          end
        end

        def receive
          if @item_timeout && !@results.frame_buffered? && !@from_child.wait_readable(@item_timeout + KILL_GRACE)
            terminate
            return :timeout
          end
          @results.read
        rescue IOError, SystemCallError
          nil
        end

        # Reports one result; returns the error when it was one.
        def deliver(job, index, kind, payload)
          value = Processes::Codec.load(job, index, payload)
          if kind == Wire::OK && !value.is_a?(UnmarshalableError)
            job.complete(index, value)
            return nil
          end
          value.index ||= index if value.is_a?(Error)
          job.fail(index, ItemBacktrace.cut_below!(value, Child::ENTRY))
          value
        end

        # The worker stopped a chunk early (fail_fast, or it could not load it).
        def finish_early(job, indices, done, last_error)
          return if done >= indices.size || job.finished?

          indices[done..].each { |index| job.fail(index, last_error || CancelledError.new("not run")) }
        end

        def died(job, indices, done, why)
          handler = job.handler # before the failure, which may finish the job (and drop it)
          status = reap
          index = indices[done]
          job.fail(index, death_error(job, index, why, status)) if index
          requeue(job, indices[(done + 1)..] || [])
          spawn(handler) if handler && !@backend.shutdown? # else the next chunk forks, see #serve
        end

        def requeue(job, rest)
          @queue << Chunk.of(job, rest) unless rest.empty? || job.finished? || @queue.closed?
        rescue ClosedQueueError
          nil
        end

        def death_error(job, index, why, status)
          item = job.items[index]
          what = "item #{Error.describe(item)} (index #{index})"
          if @backend.shutdown?
            CancelledError.new("the pool was shut down while running #{what}", item: item, index: index)
          elsif why == :timeout
            TimeoutError.new("#{what} took longer than #{@item_timeout} s; its worker process #{@pid} was killed " \
                             "and replaced", item: item, index: index)
          else
            WorkerDiedError.new("worker process #{@pid} #{status} while running #{what}; the pool started a new " \
                                "worker", item: item, index: index)
          end
        end

        # Waits for the dead (or dying) worker and describes how it ended; a
        # worker killed by shutdown(kill: true) is left to the reaper thread.
        def reap
          close_pipes
          @alive = false
          return "was killed".tap { hand_to_reaper } if @killed

          status = @ended || Processes::Backend.reap(@pid)
          @ended = nil
          return "ended" unless status

          return "was killed by SIG#{Signal.signame(status.termsig)}" if status.signaled?

          "exited with status #{status.exitstatus}"
        end

        # Once per worker: #kill (the caller's thread) and the lane's own #reap
        # both get here, and a lane that ends while the process exits must not
        # need a thread it can no longer start.
        def hand_to_reaper
          Processes::Backend.reap_later(@handed = @pid) unless @handed == @pid
        end

        def stop_worker
          return unless @alive

          Wire.write(@to_child, Wire::STOP) unless @killed
        rescue IOError, SystemCallError
          nil
        ensure
          reap if @alive
        end

        def close_pipes
          Processes::Backend.untrack(@to_child, @from_child)
          @to_child.close unless @to_child.closed?
          @from_child.close unless @from_child.closed?
        end
      end
    end
  end
end
