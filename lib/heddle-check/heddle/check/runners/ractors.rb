# frozen_string_literal: true

require "heddle/masked_lock"
require "heddle"

module Heddle
  module Check
    module Runners
      # worker: :ractor. `size` ractors started for this check alone when the
      # runner is made (before the engine generates values, so their threads
      # start meanwhile), each fed chunks through its inbox (Ractor#send,
      # which does not wait) and sending one result per chunk to the main
      # ractor ({.serve}), where the mailroom puts it in the driver's box.
      # Up to Chunking::IN_FLIGHT chunks wait in a worker's inbox,
      # so it never idles between chunks for the driver.
      #
      # Why not a ractor per chunk (the runner before this one): starting a
      # ractor and its thread, and ending it, cost the driver and the kernel
      # CPU once per chunk, on the cores the runs need (docs/check.md).
      # Why not a Heddle::Pool of ractors: its chunks cross four threads of the
      # main ractor and it is slow to start and stop; here the driver is the
      # only thread and a check's ractors end by themselves.
      #
      # A ractor cannot be stopped: after a failure, a worker still holding
      # chunks is let go and replaced ({#retire_busy}), and {#close} lets
      # every worker go. A worker let go ends after the chunks it was sent
      # (then it reads :stop: {.let_go}), unawaited. Each chunk carries a serial number,
      # so a result that is not this call's is dropped.
      class Ractors
        # First element of a worker's message to the main ractor. A Heddle
        # ractor pool's collector drops messages so tagged (no inbox has this
        # token), should one outlive its check.
        TAG = :heddle_check
        # Seconds of runs behind a failure above which their worker is let go
        # rather than kept busy with them: a few times what starting a fresh
        # ractor costs, so a cheap property keeps its workers.
        RETIRE_AFTER = 0.0005
        # Name of the thread with which a Heddle ractor pool receives its
        # workers' messages (Heddle::Workers::Ractors::Collector).
        COLLECTOR = "heddle-ractor-collector"
        # Workers post through it, and the main ractor's one reader puts
        # their results in the driver's box, so that no thread sleeps in
        # Ractor.receive (Ruby 3.3's VM deadlock) or receive_if (3.1's spin):
        # Heddle::Workers::Ractors::Doorbell and Mailroom.
        BELL = Heddle::Workers::Ractors::Doorbell
        # @see BELL
        MAILROOM = Heddle::Workers::Ractors::Mailroom
        @busy = false
        @busy_lock = Heddle::MaskedLock.new

        # A runner for this check, or nil when the check must use the pool
        # runner: with `timeout:` (this runner has no deadline; the pool
        # runner has), while a Heddle ractor pool runs (its collector thread
        # lives), or while another thread runs a ractor check: the mailroom
        # has one box for ractor checks' results ({MAILROOM}), so one
        # Ractors runner at a time reads it.
        #
        # @param property [Property]
        # @param options [Options]
        # @return [Ractors, nil]
        # @raise [NotIsolatableError] when the block cannot be isolated
        def self.claim(property, options)
          return nil unless options.timeout.nil? && no_collector?
          return nil unless take_turn

          begin
            new(property, size: options.size)
          rescue StandardError
            release
            raise
          end
        end

        # @return [Boolean] whether no Heddle ractor pool's collector thread lives
        def self.no_collector? = Thread.list.none? { |t| t.name == COLLECTOR && t.alive? }
        private_class_method :no_collector?

        # Lets the next check claim a runner.
        # @return [void]
        def self.release
          @busy_lock.synchronize { @busy = false }
        end

        # @return [Boolean] true when no other check was running ractors (and now this one is)
        def self.take_turn
          @busy_lock.synchronize do
            next false if @busy

            @busy = true
          end
        end
        private_class_method :take_turn

        # @param property [Property]
        # @param size [Integer] workers
        # @raise [NotIsolatableError] when the block cannot be isolated
        def initialize(property, size:)
          predicate = Isolation.shareable(property.predicate)
          @handler = Ractor.make_shareable(Handler.build(predicate, property.mode))
          @size = size
          # The probe goes out as IN_FLIGHT slices per worker, so that a worker
          # whose first slice is done runs its second while the driver wakes up
          # and sizes the next chunks. With one slice per worker it idled until
          # then (docs/check.md).
          @chunking = Chunking.new(size, probe_slices: size * Chunking::IN_FLIGHT)
          @serial = 0
          @outstanding = {} # worker => chunks sent and not taken back
          @open = {} # serial => [window number, worker, runs] of this call's chunks
          @stale = {} # serial => worker, of chunks behind a failure on a worker kept
          open_box
        end

        # @return [Integer] how many shrink candidates to hand over per call
        def batch_size = @chunking.batch_size

        # @param cases [Array<(Integer, Object)>] [index, args] in index order
        # @param _deadline [Float, nil] always nil ({.claim})
        # @return [(Integer, Exception), nil] the lowest-index failure
        # @raise [Heddle::Workers::UnmarshalableError] when a value cannot be copied into a ractor
        # @raise [HarnessError] when a ractor ends by an error of its own (not the property's)
        def first_failure(cases, _deadline)
          window = Window.new
          @open.clear
          sent = 0
          loop do
            sent = fill(window, cases, sent)
            return nil if window.in_flight.zero?

            number, failure = take_back(window)
            window.settle(number, failure)
            return retire_busy(window.decided) if window.decided
          end
        end

        # Lets every worker go: each ends once the chunks it was sent are done.
        # @param _options [Hash] abort: (unused: the ractors are never awaited)
        # @return [void]
        def close(**_options)
          return if @closed

          @closed = true
          Ractors.release
          @outstanding.each_key { |worker| Ractors.let_go(worker) }
          MAILROOM.close(:checks, @box) if @box
        end

        # Sends a worker :stop, which it reads after the chunks it was sent,
        # and closes its inbox. The message is what ends it on Ruby 3.3.8,
        # where closing the inbox does not wake a Ractor.receive already
        # waiting (3.1's raises Ractor::ClosedError there).
        # @param worker [Ractor]
        # @return [void]
        def self.let_go(worker)
          worker.send(:stop)
          worker.close_incoming if worker.respond_to?(:close_incoming) # gone in Ruby 4.0: :stop suffices
        rescue Ractor::ClosedError
          nil # it has ended
        end

        # A worker's loop (in its ractor): run each chunk received and send
        # its result to the main ractor, until it reads :stop. Results
        # go by Ractor.main.send and a ring of the :checks doorbell, which do
        # not wait: with Ractor.yield the worker waited for the driver to wake
        # up and take each result before it could start the chunk already queued.
        # @param handler [Proc] shareable ({Handler.build})
        # @param id [Integer] the runner's, so that its driver takes only its own results
        # @param bell [Integer] Doorbell.fileno
        # @return [void]
        def self.serve(handler, id, bell)
          BELL.attach(bell)
          ended = nil
          while (message = Ractor.receive) != :stop
            serial, batch = message
            BELL.post([TAG, id, serial, portable(handler.call([0, batch]))], :checks)
          end
          ended = :stop
        rescue Ractor::ClosedError
          ended = :closed # the check is over
        rescue Exception => e # rubocop:disable Lint/RescueException -- the driver must hear of any end
          ended = e
          BELL.post([TAG, id, nil, "#{e.class}: #{e.message}"], :checks)
        ensure
          # Only a property ending the ractor's thread unwinds with none of the above.
          BELL.post([TAG, id, nil, "Thread.exit or Thread#kill in the property"], :checks) unless ended
        end

        # A chunk's result with its failure's error as plain data: copied as
        # it is, a NameError cannot leave the ractor and any error loses its
        # backtrace (Heddle::Workers::Ractors::ErrorCopy).
        # @param result [Array((Integer, Exception), Object)] [failure or nil, seconds per run]
        # @return [Array]
        def self.portable(result)
          failure, per_run = result
          return result unless failure

          [[failure[0], Heddle::Workers::Ractors::ErrorCopy.pack(failure[1])], per_run]
        end

        private

        # A worker still holding more than RETIRE_AFTER of runs behind a
        # failure would make the next call (the next shrink step) wait for
        # them: it is let go ({.let_go}: it ends after the chunks it was
        # sent, whose results are dropped) and a fresh one takes its
        # place. A worker kept has its chunks' results dropped as they come.
        # @return [(Integer, Exception)] failure
        def retire_busy(failure)
          pending = Hash.new(0)
          @open.each_value { |(_, worker, runs)| pending[worker] += runs }
          per_run = @chunking.per_run
          pending.each { |worker, runs| retire(worker) unless per_run && per_run * runs < RETIRE_AFTER }
          @open.each { |serial, (_, worker, _)| @stale[serial] = worker if @outstanding.key?(worker) }
          @open.clear
          failure
        end

        def retire(worker)
          @outstanding.delete(worker)
          Ractors.let_go(worker)
          @outstanding[start_worker] = 0
        end

        # The driver's box, open before any worker can post; a worker that
        # cannot start leaves none running and the box closed.
        def open_box
          @box = Thread::Queue.new
          MAILROOM.open(:checks, @box)
          @size.times { @outstanding[start_worker] = 0 }
        rescue StandardError
          close
          raise
        end

        def start_worker
          Heddle::Workers::Ractors::ExperimentalNote.once
          experimental = Warning[:experimental]
          Warning[:experimental] = false
          Ractor.new(@handler, object_id, BELL.fileno, name: "heddle-check") do |handler, id, bell|
            Ractors.serve(handler, id, bell)
          end
        ensure
          Warning[:experimental] = experimental
        end

        def fill(window, cases, sent)
          @chunking.fill(window, cases, sent) { |chunk| send_chunk(chunk, window) }
        end

        # To the worker with the fewest chunks waiting. A worker that has
        # ended (a property's Thread.exit ends its ractor) is a harness error:
        # Ractor::ClosedError is a StopIteration, which first_failure's loop
        # would take for its end (the check passed without running).
        def send_chunk(chunk, window)
          worker, = @outstanding.min_by { |_, count| count }
          worker.send([@serial, chunk])
          @open[@serial] = [window.open, worker, chunk.size]
          @outstanding[worker] += 1
          @serial += 1
        rescue Ractor::ClosedError
          crashed("Thread.exit or Thread#kill in the property (it had ended when sent a chunk)")
        rescue TypeError, Ractor::Error => e
          raise Heddle::Workers::UnmarshalableError.new("a value of the runs at indices #{chunk.first[0]}.." \
                                                        "#{chunk.last[0]} cannot be copied into a ractor: " \
                                                        "#{e.message}; generate plain data or use worker: :process",
                                                        item: chunk.first[1], index: chunk.first[0])
        end

        # Takes results until one of this call's chunks is back. A result of
        # a worker let go ({#retire_busy}), this check's or an earlier one's
        # (one runner at a time: {.claim}), is dropped, so that none stays in
        # the main ractor's inbox for good.
        # @return [(Integer, Object)] its window number and failure
        # @raise [HarnessError] when a worker ended by an error of its own
        def take_back(window)
          loop do
            _tag, id, serial, result = @box.pop
            next unless id == object_id

            crashed(result) if serial.nil?

            next if stale?(serial)

            number, worker, = @open.delete(serial)
            next unless number

            @outstanding[worker] -= 1
            window.close
            @chunking.learn(result[1])
            return [number, unpack(result[0])]
          end
        end

        # @return [(Integer, Exception), nil] the failure with its error rebuilt ({.portable})
        def unpack(failure)
          failure && [failure[0], Heddle::Workers::Ractors::ErrorCopy.unpack_if_packed(failure[1])]
        end

        # @return [Boolean] whether the result is of a chunk behind a failure (then dropped)
        def stale?(serial)
          worker = @stale.delete(serial)
          @outstanding[worker] -= 1 if worker
          !worker.nil?
        end

        # @param why [String] "Class: message" of the error that ended a worker
        def crashed(why)
          raise HarnessError, "a check's ractor ended by #{why} (an error of the machinery, not of the property)"
        end
      end
    end
  end
end
