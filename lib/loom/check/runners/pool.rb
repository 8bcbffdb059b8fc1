# frozen_string_literal: true

module Loom
  module Check
    module Runners
      # Runs cases on one persistent Loom::Pool for the whole check (lazy for
      # processes), the property's block as the pool's handler (a process
      # worker's handler is fixed at fork time, hence one pool per check).
      #
      # Cases go out in chunks, at most two per worker in flight, and are
      # awaited in index order: once a chunk reports a failure no further
      # chunk is sent and later ones are not awaited, so the lowest-index
      # failure wins whatever the backend. In-process workers (fiber,
      # thread) also stop the outstanding chunks: they share a generation
      # token with the driver and skip the rest of a cancelled chunk.
      # Process and ractor workers finish the chunks already sent.
      #
      # The first chunk of a check is a short probe: it measures what a run
      # costs before the rest is split, and a property that fails early
      # (failure_simple fails on its 3rd run) fails inside it. Process workers
      # fork lazily, so a check whose chunks never wait for a second worker
      # (cheap properties: every shrink step is one chunk) forks one process.
      class Pool
        # Chunks in flight per worker: one running, one queued behind it.
        IN_FLIGHT = 2
        # Shrink candidates per call per worker: enough to fill every worker once.
        BATCH_PER_WORKER = 32
        # Seconds of work a chunk should hold at least: a round trip to a worker
        # costs 20 µs-1 ms (more on a loaded machine), so chunks of cheap runs are
        # merged (failure_simple's shrink steps: one round trip each instead of four).
        MIN_CHUNK_SECONDS = 0.002
        # Runs in the probe chunk that opens a check.
        PROBE = 8
        # Backends that share memory with the driver, hence can see a cancellation.
        SHARED_MEMORY = %i[inline fiber thread].freeze

        # @param property [Property]
        # @param worker [Symbol] a Loom::Pool backend
        # @param size [Integer] workers
        # @raise [NotIsolatableError] for :ractor when the block cannot be isolated
        def initialize(property, worker:, size:)
          predicate = worker == :ractor ? Isolation.shareable(property.predicate) : property.predicate
          @token = [0] if SHARED_MEMORY.include?(worker)
          handler = Handler.build(predicate, property.mode, @token)
          handler = Ractor.make_shareable(handler) if worker == :ractor
          @size = size
          @limit = size * IN_FLIGHT
          @per_run = nil # seconds of a typical run, as the latest chunk reported (round trips excluded)
          @pool = Loom::Pool.new(worker: worker, size: size, lazy: worker == :process, &handler)
        end

        # @return [Integer] how many shrink candidates to hand over per call
        def batch_size = @size * BATCH_PER_WORKER

        # @param cases [Array<(Integer, Object)>] [index, args] in index order
        # @param deadline [Float, nil] monotonic clock time after which to give up
        # @return [(Integer, Exception), nil] the lowest-index failure
        # @raise [TimeoutError] past the deadline
        # @raise [Loom::Workers::Error] when the machinery fails (dead worker, unmarshalable value)
        def first_failure(cases, deadline)
          unless @probed || cases.size <= PROBE
            @probed = true
            # One slice per worker: a CPU-bound property's probe runs in
            # parallel instead of holding the other workers idle (cpu_bound on
            # ractors: 73.5 -> 67.8 ms, bench/scripts/check/probe_ab.rb); a lazy
            # process pool still forks once for a cheap property.
            failure = run_chunks(cases.first(PROBE).each_slice((PROBE.to_f / @size).ceil).to_a, deadline)
            return failure if failure

            cases = cases.drop(PROBE)
          end
          run_chunks(cases.each_slice(chunk_size(cases.size)).to_a, deadline)
        end

        # Stops the workers and reaps them. Process and ractor workers are
        # stopped at once: what they still run after the check ended (the
        # chunks behind a failure) can no longer change its result. Thread and
        # fiber workers are never killed mid-run (a killed thread can leave a
        # lock held): their cancelled chunks already stop at the next run.
        #
        # @param abort [Boolean] true when the check raised (timeout, harness error): stop every backend at once
        # @return [void]
        def close(abort: false) = @pool.shutdown(kill: abort || !@token)

        private

        def run_chunks(chunks, deadline)
          generation = @token ? @token[0] : 0
          in_flight = []
          until chunks.empty? && in_flight.empty?
            in_flight << @pool.submit([generation, chunks.shift]) while in_flight.size < @limit && chunks.any?
            failure = await(in_flight.shift, deadline)
            return cancel(failure) if failure
          end
          nil
        end

        # Chunking never changes a result (the lowest index wins), only the
        # number of round trips: at least MIN_CHUNK_SECONDS of runs per chunk.
        def chunk_size(count)
          even = (count.to_f / @limit).ceil
          return even unless @per_run

          [even, (MIN_CHUNK_SECONDS / [@per_run, Float::EPSILON].max).ceil].max
        end

        # The latest chunk's typical run (Handler.typical: the lower median of
        # its passing runs, so a cold worker's first runs do not count);
        # a chunk whose every run failed or was skipped teaches nothing.
        def learn(per_run)
          @per_run = per_run if per_run
        end

        def cancel(failure)
          @token[0] += 1 if @token
          failure
        end

        def await(promise, deadline)
          if deadline
            remaining = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
            raise TimeoutError, "check ran past its timeout" unless remaining.positive? && promise.wait(remaining)
          end
          failure, per_run = promise.value!
          learn(per_run)
          failure
        end
      end
    end
  end
end
