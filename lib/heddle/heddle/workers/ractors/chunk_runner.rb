# frozen_string_literal: true

require_relative "../../masked_lock"

module Heddle
  module Workers
    module Ractors
      # Runs a worker ractor's chunks on the ractor's first thread, while a
      # second thread waits in Ractor.receive and hands chunks over, so that
      # a chunk can be stopped while it runs: `[:cancel, serial]` when its map
      # is over (a map's timeout or first error, `shutdown(kill: true)`, the
      # caller's Ctrl-C), `[:timeout, serial, message]` when its item overran
      # item_timeout (the lane times it: with item_timeout a chunk is one
      # item). Without it a ractor held every such stop until the chunk's last
      # item, and Timeout cannot run in a ractor on Ruby 3.3 (its timer thread
      # lives in the main ractor: IsolationError).
      #
      # A stop is a {Stop} raised into the runner with Thread#raise. The runner
      # masks it except while a chunk runs (Thread.handle_interrupt), and a
      # stop is raised only under the lock while its chunk runs, so it never
      # lands in a later chunk: one that comes after its chunk ended is taken
      # at once and dropped ({#drain}).
      #
      # Ruby 3.3.8's threads in a non-main ractor can hang for good when a
      # second thread ends, or waits with a timeout, while the ractor lives.
      # So the receiving thread never ends (it is ended with its ractor) and
      # waits without a timeout: on its doorbell pipe ({Ractors::Handle}),
      # taking only messages already there, so that no sender has to wake it
      # from Ractor.receive (3.3.8 and 3.4.5 deadlock the VM when a stop
      # wakes it while the runner wakes from an item's sleep and a GC barrier
      # is pending). An item that ends its thread (Thread.exit) ends the
      # ractor, which the lane replaces.
      class ChunkRunner
        # Raised into the runner: ends the chunk, failing its item with
        # {#error} when there is one (a timeout).
        class Stop < Exception # rubocop:disable Lint/InheritException -- user code rescuing StandardError must not catch it
          # @return [TimeoutError, nil]
          attr_reader :error

          # @param error [TimeoutError, nil]
          def initialize(error = nil)
            super("heddle stops this ractor's chunk")
            @error = error
          end
        end

        # @param token [Integer] the worker's address at the main ractor's collector
        # @param handler [Proc] shareable
        # @param bell [Integer] the descriptor of this ractor's doorbell ({Ractors::Handle})
        def initialize(token, handler, bell)
          @token = token
          @handler = handler
          @bell = bell
          @lock = MaskedLock.new
          @chunks = Thread::Queue.new
          @runner = Thread.current
          @running = nil # serial of the chunk running
          @cancelled = nil # the latest serial asked to stop
          Thread.new { receive_all }
        end

        # Runs chunks until :stop. An item that ends this thread (Thread.exit)
        # still has its chunk answered, as :died.
        # @return [void]
        def serve
          Thread.handle_interrupt(Stop => :never) do
            while (chunk = @chunks.pop) != :stop
              serve_chunk(*chunk)
            end
          end
        end

        private

        # The receiving thread: never ends by itself (see the class comment).
        # Each ring drains the messages there; once the lane has let this
        # ractor go (the pipe's end), what is sent is only awaited.
        def receive_all
          bell = IO.for_fd(@bell, autoclose: false)
          marks = 0
          loop do
            bell.readpartial(4096)
            Ractors::Doorbell.drain(marks += 1).each { |message| take(message) }
          end
        rescue IOError # EOFError too: the lane let this ractor go
          loop { take(Ractor.receive) }
        end

        def take(message)
          case message
          in [:cancel, serial] then stop(serial, nil)
          in [:timeout, serial, text] then stop(serial, TimeoutError.new(text))
          else @chunks.push(message)
          end
        end

        def stop(serial, error)
          @lock.synchronize do
            @cancelled = serial
            @runner.raise(Stop.new(error)) if @running == serial
          end
        end

        # A chunk names its lane's token and block: a ractor from the
        # reserve ({Ractors::Reserve}) serves whichever lane took it, and
        # gets no message of its own for that (see {Ractors::Doorbell}).
        def serve_chunk(serial, fail_fast, items, token = @token, handler = @handler)
          @token = token
          @handler = handler
          results = []
          answered = false
          cancelled = run_chunk(serial, fail_fast, items, results)
          hand_over([:results, results, cancelled])
          answered = true
        rescue Exception # rubocop:disable Lint/RescueException -- not the thread's end: the caller reports it
          answered = true
          raise
        ensure
          thread_ended(items, results) unless answered
        end

        # The item ended this thread, and so the ractor: its chunk goes back
        # as :died, with that item failed; the lane starts a new ractor for
        # the rest.
        def thread_ended(items, results)
          error = WorkerDiedError.new("item #{Error.describe(items[results.size])} ended its worker ractor's " \
                                      "thread (Thread.exit or Thread#kill); the pool started a new ractor")
          hand_over([:died, results << [:raised, Ractors::ErrorCopy.pack(error)], false])
        rescue Exception # rubocop:disable Lint/RescueException -- the ractor is ending anyway
          nil
        end

        # @return [Boolean] whether the chunk was cancelled before its last item
        def run_chunk(serial, fail_fast, items, results)
          return true unless enter(serial)

          begin
            immediate { run_items(serial, results, fail_fast, items) }
          rescue Stop => e
            results << [:raised, Ractors::ErrorCopy.pack(e.error)] if e.error
          end
          leave
          @cancelled == serial && results.size < items.size
        end

        # @return [Boolean] false when the chunk was cancelled before it began
        def enter(serial)
          @lock.synchronize do
            next false if @cancelled == serial

            @running = serial
          end
        end

        # No stop is raised once @running is nil; one raised before is taken
        # here, so that it cannot reach the next chunk.
        def leave
          @lock.synchronize { @running = nil }
          drain
        end

        def run_items(serial, results, fail_fast, items)
          items.each do |item|
            break if @cancelled == serial

            results << outcome(item)
            break if fail_fast && results.last[0] == :raised
          end
        end

        # @return [Array(Symbol, Object)] [:ok, value] or [:raised, packed error]
        def outcome(item)
          [:ok, @handler.call(item)]
        rescue Stop
          raise
        rescue Exception => e # rubocop:disable Lint/RescueException -- every error of the block goes back
          [:raised, Ractors::ErrorCopy.pack(e)]
        end

        def immediate(&) = Thread.handle_interrupt(Stop => :immediate, &)

        # Asks Thread.pending_interrupt? without a class: with one, Ruby 3.1
        # takes the pending exception for a class and crashes (segfault).
        # Only Stops are raised into this thread.
        def drain
          return unless Thread.pending_interrupt?

          immediate { Thread.pass }
        rescue Stop
          nil
        end

        # Sends a chunk's results at once; if one cannot be copied out of the
        # ractor, sends them with those that cannot replaced by errors.
        def hand_over(message)
          Ractors::Doorbell.post([@token, message], :pools)
        rescue StandardError
          kind, results, cancelled = message
          Ractors::Doorbell.post([@token, [kind, results.map { |result| copyable(result) }, cancelled]], :pools)
        end

        def copyable(result)
          Ractor.make_shareable(result, copy: true) # a trial copy: the send copies it again, unfrozen
          result
        rescue StandardError => e
          error = UnmarshalableError.new("a #{result.last.class} cannot be copied out of a worker ractor: " \
                                         "#{e.message}; return plain data")
          [:raised, ErrorCopy.pack(error)]
        end
      end
    end
  end
end
