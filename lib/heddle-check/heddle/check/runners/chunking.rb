# frozen_string_literal: true

module Heddle
  module Check
    module Runners
      # How a pool runner cuts a batch of cases into chunks. A chunk's size
      # never changes a result (the lowest index wins), only the number of
      # round trips and how evenly the workers end.
      #
      # A check opens with a probe: PROBE runs, one slice per worker, so a
      # CPU-bound property's first runs are parallel too, and an early
      # failure fails inside it. Nothing more is sent until a slice has come
      # back with a run's cost.
      #
      # After that, chunks shrink as the cases run out (a share of what is
      # left, SPREAD per worker), so the workers end together: with equal
      # chunks, the others waited on the last chunk of whichever worker got
      # less CPU. Every chunk holds at least MIN_CHUNK_SECONDS of runs.
      #
      # A runner holds one for the whole check: {#fill} cuts the chunks it
      # sends (while fewer than IN_FLIGHT per worker are out) and the runner
      # tells {#learn} each chunk's typical run as it comes back.
      class Chunking
        # Chunks in flight per worker: one running, one queued behind it.
        IN_FLIGHT = 2
        # Shrink candidates per call per worker: enough to fill every worker once.
        BATCH_PER_WORKER = 32
        # Seconds of work a chunk should hold at least: a round trip to a worker
        # costs more than many cheap runs, so chunks of cheap runs are merged
        # (a cheap property's shrink step makes one round trip, not several).
        MIN_CHUNK_SECONDS = 0.002
        # Runs in the probe that opens a check, split over the workers.
        PROBE = 8
        # Each chunk after the probe holds 1 / (workers * SPREAD) of the runs
        # still to send: large at first (few round trips), small at the end.
        SPREAD = 2

        # @return [Float, nil] seconds of a typical run, as the latest chunk reported (round trips
        #   excluded); nil until a chunk reported one
        attr_reader :per_run

        # @param size [Integer] workers
        # @param probe_slices [Integer] how many slices the probe is cut into: by default one per worker
        def initialize(size, probe_slices: size)
          @size = size
          @probe_slices = probe_slices
          @limit = size * IN_FLIGHT # chunks in flight at most, over all the workers
          @per_run = nil
          @probe_left = PROBE # runs of the opening probe not sent yet
        end

        # @return [Integer] how many shrink candidates to hand over per call
        def batch_size = @size * BATCH_PER_WORKER

        # @param left [Integer] cases not sent yet
        # @param in_flight [Integer] chunks out
        # @return [Integer, nil] the next chunk's runs; nil to wait for the probe
        def chunk_size(left, in_flight)
          return probe_slice(left) if @per_run.nil? && @probe_left.positive?
          return nil if @per_run.nil? && in_flight.positive?

          share = share_of(left)
          @per_run ? [share, (MIN_CHUNK_SECONDS / [@per_run, Float::EPSILON].max).ceil].max.clamp(1, left) : share
        end

        # Cuts chunks off the cases from index sent on while the window has
        # room and the probe allows, handing each to the block to send.
        # @param window [Window]
        # @param cases [Array]
        # @param sent [Integer] cases already sent
        # @yieldparam chunk [Array] the next chunk's cases
        # @return [Integer] how many cases have been sent
        def fill(window, cases, sent)
          while window.in_flight < @limit && sent < cases.size && !window.failed?
            size = chunk_size(cases.size - sent, window.in_flight) or break
            yield cases[sent, size]
            sent += size
          end
          sent
        end

        # The latest chunk's typical run (Handler.typical: the lower median of
        # its passing runs, so a cold worker's first runs do not count);
        # a chunk whose every run failed or was skipped teaches nothing.
        # @param per_run [Float, nil]
        # @return [void]
        def learn(per_run)
          @per_run = per_run if per_run
        end

        private

        # The runs of the next chunk before the MIN_CHUNK_SECONDS floor.
        # @return [Integer]
        def share_of(left) = (left.to_f / (@size * SPREAD)).ceil

        def probe_slice(left)
          size = [(PROBE.to_f / @probe_slices).ceil, @probe_left, left].min
          @probe_left -= size
          size
        end
      end
    end
  end
end
