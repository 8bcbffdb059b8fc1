# frozen_string_literal: true

module Loom
  module Workers
    # The main ractor's side of one worker ractor: a thread that takes chunks
    # from the pool's queue, sends them to the ractor and reports what comes
    # back. A ractor cannot be killed, so a ractor whose body ended by an
    # error (only loom's own bugs can do that) is reported and replaced.
    # Its handler is the shareable one from {RactorBackend.shareable!}.
    class RactorLane < Lane
      private

      def start_worker
        @inbox = Thread::Queue.new
        @token = RactorBackend.open_inbox(@inbox)
        @ractor = RactorBackend.start_ractor(@token, @handler, @item_timeout)
      end

      def serve(chunk)
        job = chunk.job
        indices = sendable(job, chunk.indices.to_a)
        return if indices.empty?

        @ractor.send([job.fail_fast?, indices.map { |i| job.items[i] }])
        collect(job, indices)
      rescue Ractor::ClosedError => e
        replace(job, indices, e.message)
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

      def collect(job, indices)
        kind, payload = @inbox.pop
        return replace(job, indices, payload) unless kind == :results

        payload.each_with_index { |(outcome, value), i| deliver(job, indices[i], outcome, value) }
        rest = indices[payload.size..]
        return if rest.empty? || job.finished?

        # The worker stopped the chunk at an error (fail_fast).
        rest.each { |index| job.fail(index, payload.last.last) }
      end

      def deliver(job, index, kind, value)
        return job.complete(index, value) if kind == :ok

        if value.is_a?(Error)
          value.index ||= index
          value.item ||= job.items[index]
        end
        job.fail(index, value)
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
        @ractor = RactorBackend.start_ractor(@token, @handler, @item_timeout) unless @backend.shutdown?
      end

      def stop_worker
        @ractor.send(:stop)
        await_stopped
      rescue Ractor::Error
        nil
      ensure
        RactorBackend.collector.close(@token)
      end
    end
  end
end
