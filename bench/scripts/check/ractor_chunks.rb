# frozen_string_literal: true

require "heddle"
require "heddle/check"

module Heddle
  module Check
    module Runners
      # The runner worker: :ractor used until 2026-11-23, kept here as the
      # baseline of the A/B scripts (window_ab.rb); heddle now runs
      # Ractors. Each chunk of cases runs in a ractor of its own, as
      # Pbt's ractor worker runs each value in one, with IN_FLIGHT ractors per
      # worker alive at a time; the driver takes whichever ractor ends first
      # (Ractor.select) and starts the next.
      #
      # Why not a Heddle::Pool of ractors: a pooled chunk crosses four threads
      # of the main ractor (driver, lane, collector, lane again) and every
      # crossing wakes a thread, which on a loaded machine waits for a core;
      # and the pool's start and shutdown (lane threads, the collector, the
      # stop handshake) cost ~2 ms per check. Here the driver is the only
      # thread, woken once per chunk, and there is nothing to shut down: a
      # ractor ends with its chunk. `bench/scripts/check/window_ab.rb` has
      # the A/B and docs/check.md the figures.
      #
      # Ractors cannot be killed: the chunks behind a failure run to their
      # end, unawaited, as a pool's would.
      #
      # This was worker: :ractor's runner until {Ractors} (a ractor per
      # worker for the whole check) replaced it; it is kept, like
      # {ForkPerBatch}, as the baseline of bench/scripts/check/ractor_gap.rb
      # and window_ab.rb, which make it in place of {Runners.for}'s choice.
      #
      # Its chunking is its own: the Chunking mixin it included then, folded
      # in, so that this baseline does not move with {Chunking} (now an
      # object the shipped runners hold). Only the tuning is read from there.
      class RactorChunks
        # Chunks in flight per worker (ractors alive per worker).
        IN_FLIGHT = Chunking::IN_FLIGHT
        # Shrink candidates per call per worker.
        BATCH_PER_WORKER = Chunking::BATCH_PER_WORKER
        # Seconds of work a chunk holds at least.
        MIN_CHUNK_SECONDS = Chunking::MIN_CHUNK_SECONDS
        # Runs in the probe that opens a check, one slice per worker.
        PROBE = Chunking::PROBE
        # Before a run's cost is known, a chunk holds 1 / (workers * SPREAD) of the runs still to send.
        SPREAD = Chunking::SPREAD

        # @param property [Property]
        # @param size [Integer] workers
        # @raise [NotIsolatableError] when the block cannot be isolated
        def initialize(property, size:)
          predicate = Isolation.shareable(property.predicate)
          @handler = Ractor.make_shareable(Handler.build(predicate, property.mode))
          @size = size
          start_chunking
        end

        # @return [Integer] how many shrink candidates to hand over per call
        def batch_size = @size * BATCH_PER_WORKER

        # @param cases [Array<(Integer, Object)>] [index, args] in index order
        # @param _deadline [Float, nil] ignored (Ractor.select cannot time out)
        # @return [(Integer, Exception), nil] the lowest-index failure
        # @raise [Heddle::Workers::UnmarshalableError] when a value cannot be copied into a ractor
        # @raise [HarnessError] when a ractor ends by an error of its own (not the property's)
        def first_failure(cases, _deadline)
          window = Window.new
          running = {} # ractor => chunk number
          sent = 0
          loop do
            sent = fill(window, running, cases, sent)
            return nil if running.empty?

            ractor, (failure, per_run) = take(running)
            window.close
            learn(per_run)
            window.settle(running.delete(ractor), failure)
            return window.decided if window.decided
          end
        end

        # Ractors still running (behind a failure) end by themselves.
        # @param _options [Hash] abort: (unused: every ractor ends with its chunk)
        # @return [void]
        def close(**_options); end

        private

        def start_chunking
          @limit = @size * IN_FLIGHT
          @per_run = nil # seconds of a typical run, as the latest chunk reported (round trips excluded)
          @probe_left = PROBE # runs of the opening probe not sent yet
        end

        def fill(window, running, cases, sent)
          while window.in_flight < @limit && sent < cases.size && !window.failed?
            size = chunk_size(cases.size - sent, window.in_flight)
            break unless size

            running[start(cases[sent, size])] = window.open
            sent += size
          end
          sent
        end

        def start(chunk)
          Heddle::Workers::Ractors::ExperimentalNote.once
          experimental = Warning[:experimental]
          Warning[:experimental] = false
          Ractor.new(@handler, chunk, name: "heddle-check") { |handler, batch| handler.call([0, batch]) }
        rescue TypeError, Ractor::Error => e
          raise Heddle::Workers::UnmarshalableError.new("a value of the runs at indices #{chunk.first[0]}.." \
                                                      "#{chunk.last[0]} cannot be copied into a ractor: " \
                                                      "#{e.message}; generate plain data or use worker: :process",
                                                      item: chunk.first[1], index: chunk.first[0])
        ensure
          Warning[:experimental] = experimental
        end

        # Once a run's cost is known, a chunk holds just MIN_CHUNK_SECONDS of
        # runs (cpu_bound: 2 runs), not a share of what is left: many short
        # ractors, as Pbt's one per run. Interleaved with the shares of the
        # pool runner on a loaded machine (load 8-9, 21 trials each,
        # bench/scripts/check/window_ab.rb), cpu_bound went from 0.82-1.06x
        # Pbt's ractor worker to 1.02-1.13x. (Starting a ractor costs
        # 50-200 µs of the driver's time, so this pays for runs of
        # milliseconds, and cheap runs still go in one chunk.)
        def share_of(left) = @per_run ? 1 : (left.to_f / (@size * SPREAD)).ceil

        # @param left [Integer] cases not sent yet
        # @param in_flight [Integer] chunks out
        # @return [Integer, nil] the next chunk's runs; nil to wait for the probe
        def chunk_size(left, in_flight)
          return probe_slice(left) if @per_run.nil? && @probe_left.positive?
          return nil if @per_run.nil? && in_flight.positive?

          share = share_of(left)
          @per_run ? [share, (MIN_CHUNK_SECONDS / [@per_run, Float::EPSILON].max).ceil].max.clamp(1, left) : share
        end

        # How many slices the probe is cut into: one per worker.
        # @return [Integer]
        def probe_slices = @size

        def probe_slice(left)
          size = [(PROBE.to_f / probe_slices).ceil, @probe_left, left].min
          @probe_left -= size
          size
        end

        # The latest chunk's typical run (Handler.typical: the lower median of
        # its passing runs, so a cold worker's first runs do not count);
        # a chunk whose every run failed or was skipped teaches nothing.
        def learn(per_run)
          @per_run = per_run if per_run
        end

        # On Ruby 3.1, Ractor.select can return a ractor it was not given: one
        # started by an earlier call, whose chunk was abandoned behind a
        # failure and ended since (the `checks` suite's failure_simple on
        # :ractor, about 1 check in 150). Its result belongs to a batch that
        # is decided already, so it is dropped and the wait goes on.
        def take(running)
          loop do
            ractor, result = Ractor.select(*running.keys)
            return [ractor, result] if running.key?(ractor)
          end
        rescue Ractor::Error => e
          cause = e.cause || e
          raise HarnessError, "a check's ractor ended by #{cause.class}: #{cause.message} " \
                              "(an error of the machinery, not of the property)"
        end
      end
    end
  end
end
