# frozen_string_literal: true

require_relative "../lane"
require_relative "inbox"

module Heddle
  module Workers
    module Ractors
      # The main ractor's side of one worker ractor: a thread that takes chunks
      # from the pool's queue, sends them to the ractor and reports what comes
      # back. A ractor cannot be killed, but the chunk it runs can be stopped
      # ({#cancel}: its map is over). The lane times items itself
      # (`item_timeout`: each item goes alone, and an overrun is stopped from
      # here), as no thread of a worker ractor may wait with a timeout on Ruby
      # 3.3 ({Ractors::ChunkRunner}). A ractor that ended (an item's Thread.exit,
      # or a bug of heddle's) is reported and replaced.
      # Its handler is the shareable one from {Ractors::Backend.shareable!}.
      class Lane < Workers::Lane
        # Seconds an item may overrun item_timeout before the lane stops it:
        # the ractor times nothing, so the lane's clock also counts the trip.
        TIMEOUT_GRACE = 0.01

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

          @worker.post([:cancel, serial])
        rescue Ractor::ClosedError
          nil # the ractor has ended: nothing runs
        end

        private

        # A worker ractor gets an inbox and a token of its own, so that
        # nothing a replaced one still sends reaches its successor.
        def start_worker
          @inbox = Ractors::Inbox.new
          @token = Ractors::Backend.open_inbox(@inbox)
          @worker = Ractors::Reserve.checkout(@token, @handler)
        end

        def serve(chunk)
          job = chunk.job
          indices = sendable(job, chunk.indices.to_a)
          return if indices.empty?
          return skip(job, indices) if @killed
          return run(job, indices) unless @item_timeout

          indices.each { |index| run(job, [index]) unless job.finished? }
        end

        # Sends one chunk and reports its results.
        def run(job, indices)
          @serial = Ractors::Reserve.next_serial
          @running = [@serial, job]
          @worker.post([@serial, job.fail_fast?, indices.map { |i| job.items[i] }, @token, @handler])
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
        # ran), it stopped at an error (fail_fast: the job is finished), or an
        # item ended the ractor (:died: they go to its successor).
        def collect(job, indices)
          kind, results, cancelled = receive(job, indices)
          return replace(job, indices, results) unless %i[results died].include?(kind)

          results.each_with_index { |(outcome, value), i| deliver(job, indices[i], outcome, value) }
          rest = indices[results.size..]
          return succeed(job, rest) if kind == :died

          cancel_rest(job, rest) if cancelled
        end

        def cancel_rest(job, rest)
          return if rest.empty? || job.finished?

          error = CancelledError.new("the map was stopped; #{rest.size} items of a running chunk did not run")
          rest.each { |index| job.fail(index, error) }
        end

        # The chunk's answer; with item_timeout, an item (alone in its chunk)
        # that overruns it is stopped by a message, and its answer then holds
        # the TimeoutError.
        def receive(job, indices)
          return @inbox.pop unless @item_timeout

          answer = @inbox.pop(@item_timeout + TIMEOUT_GRACE)
          return answer if answer

          item = job.items[indices.first]
          @worker.post([:timeout, @serial, "item #{Error.describe(item)} took longer than #{@item_timeout} s"])
          @inbox.pop
        end

        def deliver(job, index, kind, value)
          return job.complete(index, value) if kind == :ok

          error = Ractors::ErrorCopy.unpack_if_packed(value)
          if error.is_a?(Error)
            error.index ||= index
            error.item ||= job.items[index]
          end
          job.fail(index, error)
        end

        # After an item ended the ractor: a new one runs the rest of the chunk.
        def succeed(job, rest)
          retire_and_restart
          run(job, rest) unless rest.empty? || job.finished?
        end

        def replace(job, indices, why)
          message = "worker ractor ended (#{why}) while running items at indices #{indices.first(5).inspect}; " \
                    "the pool started a new one"
          indices.each { |index| job.fail(index, WorkerDiedError.new(message, item: job.items[index], index: index)) }
          return retire_and_restart unless @backend.shutdown?

          @ended = true # stop_worker must not give it to the reserve
        end

        # Lets the ractor go (it may live on) and starts a new one.
        def retire_and_restart
          worker = @worker
          token = @token
          start_worker
          retire(worker, token)
        end

        def retire(worker, token)
          worker.post(:stop)
        rescue Ractor::ClosedError
          nil
        ensure
          worker.close
          Ractors::Backend.close_inbox(token)
        end

        # The ractor has answered its last chunk: it goes back to the
        # reserve, alive (a ractor ending while others work can deadlock
        # Ruby 3.3's VM; see {Ractors::Reserve}).
        def stop_worker
          Ractors::Reserve.checkin(@worker) unless @ended
        ensure
          Ractors::Backend.close_inbox(@token)
        end
      end
    end
  end
end
