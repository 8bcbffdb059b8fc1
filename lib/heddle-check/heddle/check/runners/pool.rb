# frozen_string_literal: true

module Heddle
  module Check
    module Runners
      # Runs cases on one persistent Heddle::Pool for the whole check (lazy for
      # processes), the property's block as the pool's handler (a process
      # worker's handler is fixed at fork time, hence one pool per check).
      # worker: :ractor uses {Ractors} instead, except with `timeout:`.
      #
      # Cases go out in chunks ({Chunking}: a probe, then chunks that shrink
      # as the cases run out), at most two per worker in flight, and are
      # taken back as they finish ({Window}); once a chunk reports a failure
      # no further chunk is sent, and the failure is returned once every
      # chunk before it is back, so the lowest-index failure wins whatever the
      # backend. In-process workers (fiber, thread) also stop the outstanding
      # chunks: they share a generation token with the driver and skip the
      # rest of a cancelled chunk. Process workers finish the chunks already
      # sent. Process workers fork lazily, so a check whose chunks never wait
      # for a second worker (cheap properties: every shrink step is one
      # chunk) forks one process. So the probe goes to a lazy pool as one
      # slice: a second slice waiting behind the first worker's start (a
      # fork, longer than the backlog's patience) forked a second process
      # for a property one process clears in a millisecond.
      class Pool
        # Backends that share memory with the driver, hence can see a cancellation.
        SHARED_MEMORY = %i[inline fiber thread].freeze

        # @param property [Property]
        # @param worker [Symbol] a Heddle::Pool backend
        # @param size [Integer] workers
        # @raise [NotIsolatableError] for :ractor when the block cannot be isolated
        def initialize(property, worker:, size:)
          predicate = worker == :ractor ? Isolation.shareable(property.predicate) : property.predicate
          @token = [0] if SHARED_MEMORY.include?(worker)
          handler = Handler.build(predicate, property.mode, @token)
          handler = Ractor.make_shareable(handler) if worker == :ractor
          lazy = worker == :process
          @chunking = Chunking.new(size, probe_slices: lazy ? 1 : size)
          @pool = Heddle::Pool.new(worker: worker, size: size, lazy: lazy, &handler)
        end

        # @return [Integer] how many shrink candidates to hand over per call
        def batch_size = @chunking.batch_size

        # Keeps up to Chunking::IN_FLIGHT chunks per worker out, sends the next as soon
        # as any comes back (a {Window}) and stops sending at a failure.
        #
        # @param cases [Array<(Integer, Object)>] [index, args] in index order
        # @param deadline [Float, nil] monotonic clock time after which to give up
        # @return [(Integer, Exception), nil] the lowest-index failure
        # @raise [TimeoutError] past the deadline
        # @raise [Heddle::Workers::Error] when the machinery fails (dead worker, unmarshalable value)
        def first_failure(cases, deadline)
          generation = @token ? @token[0] : 0
          window = Window.new
          sent = 0
          loop do
            sent = fill(window, cases, sent, generation)
            return nil if window.in_flight.zero?

            number, promise = window.take(deadline)
            failure, per_run = promise.value!
            @chunking.learn(per_run)
            window.settle(number, failure)
            return cancel(window.decided) if window.decided
          end
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

        # Sends chunks of the cases from index sent on until the window is full.
        # @return [Integer] how many cases have been sent
        def fill(window, cases, sent, generation)
          @chunking.fill(window, cases, sent) { |chunk| window.watch(@pool.submit([generation, chunk])) }
        end

        def cancel(failure)
          @token[0] += 1 if @token
          failure
        end
      end
    end
  end
end
