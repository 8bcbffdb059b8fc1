# frozen_string_literal: true

module Loom
  module Workers
    # The main ractor's side of one worker ractor: a thread that takes chunks
    # from the pool's queue, sends them to the ractor and reports what comes
    # back. A ractor cannot be killed, but the chunk it runs can be stopped
    # ({#cancel}: its map is over). A ractor whose body ended by an error
    # (only loom's own bugs can do that) is reported and replaced.
    # Its handler is the shareable one from {RactorBackend.shareable!}.
    class RactorLane < Lane
      # Stops the chunk this lane's ractor is running if it belongs to job
      # (any chunk when job is nil, and none after it: a kill). Safe from
      # any thread: a stale cancel names a chunk the ractor has finished,
      # and the ractor ignores it.
      # @param job [Job, nil]
      # @return [void]
      def cancel(job = nil)
        @killed = true if job.nil?
        serial, running = @running
        return unless serial && (job.nil? || running.equal?(job))

        @ractor.send([:cancel, serial])
      rescue Ractor::ClosedError
        nil # the ractor has ended: nothing runs
      end

      private

      # A worker ractor gets an inbox and a token of its own, so that
      # nothing a replaced one still sends reaches its successor.
      def start_worker
        @inbox = Thread::Queue.new
        @token = RactorBackend.open_inbox(@inbox)
        @ractor = RactorBackend.start_ractor(@token, @handler, @item_timeout)
      end

      def serve(chunk)
        job = chunk.job
        indices = sendable(job, chunk.indices.to_a)
        return if indices.empty?
        return skip(job, indices) if @killed

        @serial = (@serial || 0) + 1
        @running = [@serial, job]
        @ractor.send([@serial, job.fail_fast?, indices.map { |i| job.items[i] }])
        collect(job, indices)
      rescue Ractor::ClosedError => e
        replace(job, indices, e.message)
      ensure
        @running = nil
      end

      # A chunk taken just as the pool was killed: its items never run.
      def skip(job, indices)
        error = CancelledError.new("the pool was shut down; #{indices.size} queued items did not run")
        indices.each { |index| job.fail(index, error) }
      end

      # Sends the chunk whole when it can be copied; otherwise fails the
      # items that cannot be copied into a ractor.
      def sendable(job, indices)
        Ractor.make_shareable(indices.map { |i| job.items[i] }, copy: true)
        indices
      rescue StandardError
        indices.select { |index| copyable?(job, index) }
      end

      def copyable?(job, index)
        Ractor.make_shareable(job.items[index], copy: true)
        true
      rescue StandardError => e
        item = job.items[index]
        job.fail(index, UnmarshalableError.new("item #{Error.describe(item)} (index #{index}) cannot be copied " \
                                               "into a worker ractor: #{e.message}", item: item, index: index))
        false
      end

      # Items the worker did not reach: the chunk was cancelled (they never
      # ran), or it stopped at an error (fail_fast: the job is finished).
      def collect(job, indices)
        kind, results, cancelled = @inbox.pop
        return replace(job, indices, results) unless kind == :results

        results.each_with_index { |(outcome, value), i| deliver(job, indices[i], outcome, value) }
        rest = indices[results.size..]
        return if rest.empty? || job.finished? || !cancelled

        error = CancelledError.new("the map was stopped; #{rest.size} items of a running chunk did not run")
        rest.each { |index| job.fail(index, error) }
      end

      def deliver(job, index, kind, value)
        return job.complete(index, value) if kind == :ok

        error = RactorException.unpack_if_packed(value)
        if error.is_a?(Error)
          error.index ||= index
          error.item ||= job.items[index]
        end
        job.fail(index, error)
      end

      # Waits (bounded: a ractor cannot be killed) for the worker to stop.
      def await_stopped(limit = 2.0)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + limit
        until Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
          return if (@inbox.pop(true) rescue nil)&.first == :stopped # rubocop:disable Style/RescueModifier

          sleep 0.001
        end
      end

      def replace(job, indices, why)
        message = "worker ractor ended (#{why}) while running items at indices #{indices.first(5).inspect}; " \
                  "the pool started a new one"
        indices.each { |index| job.fail(index, WorkerDiedError.new(message, item: job.items[index], index: index)) }
        return if @backend.shutdown? # stop_worker lets it go

        ractor = @ractor
        token = @token
        start_worker
        retire(ractor, token)
      end

      # Lets a replaced ractor go: its first thread may live on.
      def retire(ractor, token)
        ractor.send(:stop)
      rescue Ractor::ClosedError
        nil
      ensure
        RactorBackend.collector.close(token)
      end

      def stop_worker
        @ractor.send(:stop)
        await_stopped
      rescue Ractor::ClosedError, Ractor::Error
        nil # it has ended
      ensure
        RactorBackend.collector.close(@token)
      end
    end
  end
end
