# frozen_string_literal: true

require "io/wait"

module Loom
  module Workers
    # The parent's side of one worker process: a thread that takes chunks
    # from the pool's queue, sends them down a pipe, reads each result as it
    # comes, and when the process dies (or overruns its item timeout) reports
    # the item it was running, requeues the rest and forks a replacement.
    class ProcessLane < Lane
      # Extra seconds past item_timeout before the parent kills a worker that
      # did not time out by itself (stuck in C code, signals blocked).
      KILL_GRACE = 1.0

      # @return [Integer] the current worker process id
      attr_reader :pid

      # Kills the worker process now (shutdown with kill: true).
      # @return [void]
      def kill
        Process.kill(:KILL, @pid)
      rescue Errno::ESRCH
        nil
      end

      private

      def start_worker = spawn

      # Forks a worker with fresh pipes (at start, and to replace a dead one).
      def spawn
        requests, @to_child = IO.pipe
        @from_child, results = IO.pipe
        [requests, @to_child, @from_child, results].each(&:binmode)
        ProcessBackend.track(@to_child, @from_child)
        @pid = Process.fork { run_child(requests, results) }
        requests.close
        results.close
      end

      def run_child(requests, results)
        ProcessBackend.close_inherited
        ProcessChild.new(requests, results, @handler, @item_timeout).run
      ensure
        $stdout.flush
        $stderr.flush
        Process.exit!(0) # never run the parent's at_exit hooks (minitest, loom's own)
      end

      def serve(chunk)
        job = chunk.job
        indices, payload = pack(chunk, job)
        return if indices.empty?

        return died(job, indices, 0, nil) unless send_work(payload)

        collect(job, indices)
      end

      # Marshals the chunk; items that cannot be marshaled fail one by one.
      def pack(chunk, job)
        indices = chunk.indices.to_a
        [indices, Marshal.dump([job.fail_fast?, chunk.items])]
      rescue StandardError
        indices = indices.select { |index| marshalable?(job, index) }
        [indices, Marshal.dump([job.fail_fast?, indices.map { |i| job.items[i] }])]
      end

      def marshalable?(job, index)
        Marshal.dump(job.items[index])
        true
      rescue StandardError => e
        item = job.items[index]
        job.fail(index, UnmarshalableError.new("item #{Error.describe(item)} (index #{index}) cannot be sent to a " \
                                               "worker process: #{e.message}; pass plain data", item: item,
                                                                                                index: index))
        false
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
        if @item_timeout && !@from_child.wait_readable(@item_timeout + KILL_GRACE)
          kill
          return :timeout
        end
        Wire.read(@from_child)
      rescue IOError, SystemCallError
        nil
      end

      # Reports one result; returns the error when it was one.
      def deliver(job, index, kind, payload)
        value = load(job, index, payload)
        if kind == Wire::OK && !value.is_a?(UnmarshalableError)
          job.complete(index, value)
          return nil
        end
        value.index ||= index if value.is_a?(Error)
        job.fail(index, value)
        value
      end

      def load(job, index, payload)
        Marshal.load(payload) # rubocop:disable Security/MarshalLoad -- our own worker wrote it
      rescue StandardError => e
        item = job.items[index]
        UnmarshalableError.new("the outcome of item #{Error.describe(item)} (index #{index}) cannot be loaded " \
                               "in the caller: #{e.message}", item: item, index: index)
      end

      # The worker stopped a chunk early (fail_fast, or it could not load it).
      def finish_early(job, indices, done, last_error)
        return if done >= indices.size || job.finished?

        indices[done..].each { |index| job.fail(index, last_error || CancelledError.new("not run")) }
      end

      def died(job, indices, done, why)
        status = reap
        index = indices[done]
        job.fail(index, death_error(job, index, why, status)) if index
        requeue(job, indices[(done + 1)..] || [])
        spawn unless @backend.shutdown?
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

      # Waits for the dead (or dying) worker and describes how it ended.
      def reap
        close_pipes
        status = ProcessBackend.reap(@pid)
        return "ended" unless status

        return "was killed by SIG#{Signal.signame(status.termsig)}" if status.signaled?

        "exited with status #{status.exitstatus}"
      end

      def stop_worker
        Wire.write(@to_child, Wire::STOP)
      rescue IOError, SystemCallError
        nil
      ensure
        close_pipes
        ProcessBackend.reap(@pid)
      end

      def close_pipes
        ProcessBackend.untrack(@to_child, @from_child)
        @to_child.close unless @to_child.closed?
        @from_child.close unless @from_child.closed?
      end
    end
  end
end
