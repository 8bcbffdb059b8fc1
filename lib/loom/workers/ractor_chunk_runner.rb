# frozen_string_literal: true

module Loom
  module Workers
    # The thread of a worker ractor that runs its chunks, so that the
    # ractor's first thread stays in Ractor.receive ({RactorWorker}) and can
    # stop the chunk running when its map is over ({#cancel}: a map's
    # timeout or first error, `shutdown(kill: true)`, the caller's Ctrl-C).
    # Without it a ractor held every such stop until the chunk's last item
    # (49 s for 100 items of 2 s).
    #
    # With `item_timeout`, a watcher thread ends an item that overruns it.
    # Both stop the runner with Thread#raise of a {Stop}, which works inside
    # a ractor; Timeout does not on Ruby 3.3 (its timer thread lives in the
    # main ractor: Ractor::IsolationError).
    #
    # The runner thread masks {Stop} except while an item runs
    # (Thread.handle_interrupt), and a stop is raised only under the lock
    # while its item or chunk is the one running, so a stop never lands in a
    # later item: one that comes after its item ended is taken at once and
    # dropped ({#drain}).
    class RactorChunkRunner
      # Raised into the runner thread: ends the running item with {#error}
      # (a timeout), or the chunk when {#error} is nil (a cancel).
      class Stop < Exception # rubocop:disable Lint/InheritException -- user code rescuing StandardError must not catch it
        # @return [TimeoutError, nil]
        attr_reader :error

        # @param error [TimeoutError, nil]
        def initialize(error = nil)
          super("loom stops this ractor's item or chunk")
          @error = error
        end
      end

      # Seconds between looks at a thread being awaited ({#await}).
      JOIN_POLL = 0.001

      # @param token [Integer] the worker's address at the main ractor's collector
      # @param handler [Proc] shareable
      # @param item_timeout [Numeric, nil] seconds
      def initialize(token, handler, item_timeout)
        @token = token
        @handler = handler
        @item_timeout = item_timeout
        @lock = Mutex.new
        @wake = ConditionVariable.new
        @chunks = Thread::Queue.new
        @running = nil # serial of the chunk running
        @cancelled = nil # the latest serial asked to stop
        @item = nil # [item, deadline] of the timed item running
        start_thread
        @watcher = Thread.new { watch } if item_timeout
      end

      # @param chunk [Array(Integer, Boolean, Array)] serial, fail_fast, items
      # @return [void]
      def push(chunk) = @chunks.push(chunk)

      # Stops chunk serial: the item running ends by {Stop}, the rest are skipped.
      # @param serial [Integer]
      # @return [void]
      def cancel(serial)
        @lock.synchronize do
          @cancelled = serial
          @thread.raise(Stop.new) if @running == serial
        end
      end

      # Runs the chunks pushed so far, then stops the threads.
      # @return [void]
      def finish
        @chunks.close
        sleep JOIN_POLL while @thread.alive? # @thread, as a runner may be replaced meanwhile
        @lock.synchronize do
          @closed = true
          @wake.signal
        end
        await(@watcher) if @watcher
      end

      private

      # Polls instead of joining: in a non-main ractor of Ruby 3.3.8, a
      # thread waiting (Thread#join, even with a timeout, or Queue#pop) for
      # what a thread does as it ends can hang for good, in about half the
      # runs with two ractors (bench/scripts/workers/ractor_join_hang.rb).
      # Sleeping while the thread ends does not.
      def await(thread)
        sleep JOIN_POLL while thread.alive?
      end

      def start_thread(resume = nil)
        @thread = Thread.new { Thread.handle_interrupt(Stop => :never) { serve(resume) } }
      end

      # @param resume [Array, nil] a chunk whose items a dead runner left ({#thread_ended})
      def serve(resume)
        serve_chunk(*resume) if resume
        while (chunk = @chunks.pop)
          serve_chunk(*chunk, [])
        end
      rescue Exception => e # rubocop:disable Lint/RescueException -- the lane must hear of any end
        Ractor.main.send([@token, [:crashed, "#{e.class}: #{e.message}"]])
      end

      # An item that ends the runner thread (Thread.exit, Thread#kill)
      # unwinds through here with no exception: see {#thread_ended}.
      def serve_chunk(serial, fail_fast, items, results)
        answered = false
        cancelled = run_chunk(serial, fail_fast, items, results)
        hand_over([:results, results, cancelled])
        answered = true
      rescue Exception # rubocop:disable Lint/RescueException -- not the thread's end: serve reports it
        answered = true
        raise
      ensure
        thread_ended(serial, fail_fast, items, results) unless answered
      end

      # The item that ended the runner thread fails with WorkerDiedError and
      # a new runner takes over the rest of the chunk (unless fail_fast).
      def thread_ended(serial, fail_fast, items, results)
        item = items[results.size]
        error = WorkerDiedError.new("item #{Error.describe(item)} ended its worker ractor's thread " \
                                    "(Thread.exit or Thread#kill); the ractor started another")
        results << [:raised, RactorException.pack(error)]
        return start_thread([serial, fail_fast, items, results]) unless fail_fast

        hand_over([:results, results, false])
        start_thread
      end

      # @param results [Array] outcomes so far (the runner that began the chunk died)
      # @return [Boolean] whether the chunk was cancelled before its last item
      def run_chunk(serial, fail_fast, items, results)
        return true unless enter(serial)

        begin
          if @item_timeout # each item is open to stops on its own ({#timed})
            run_items(serial, results, fail_fast, items)
          else
            immediate { run_items(serial, results, fail_fast, items) }
          end
        rescue Stop
          nil # cancelled: the results so far go back
        ensure
          @lock.synchronize { @running = nil }
          drain
        end
        @cancelled == serial && results.size < items.size
      end

      # @return [Boolean] false when the chunk was cancelled before it began
      def enter(serial)
        @lock.synchronize do
          next false if @cancelled == serial

          @running = serial
        end
      end

      # A cancel that came between two items (masked) ends the chunk here.
      def run_items(serial, results, fail_fast, items)
        items.drop(results.size).each do |item|
          break if @cancelled == serial

          results << (@item_timeout ? timed(item) : outcome(item))
          break if fail_fast && results.last[0] == :raised
        end
      end

      # @return [Array(Symbol, Object)] [:ok, value] or [:raised, packed error]
      def outcome(item)
        [:ok, @handler.call(item)]
      rescue Stop
        raise
      rescue Exception => e # rubocop:disable Lint/RescueException -- every error of the block goes back
        [:raised, RactorException.pack(e)]
      end

      # An item under item_timeout: the watcher may stop it with a TimeoutError.
      # A cancel raised during the item ends the chunk (run_chunk takes it).
      def timed(item)
        @lock.synchronize do
          @item = [item, Process.clock_gettime(Process::CLOCK_MONOTONIC) + @item_timeout]
          @wake.signal
        end
        begin
          immediate { outcome(item) }
        rescue Stop => e
          raise unless e.error

          [:raised, RactorException.pack(e.error)]
        ensure
          @lock.synchronize { @item = nil }
          drain # a timeout that fired as the item ended; a cancel is seen by run_items
        end
      end

      def immediate(&) = Thread.handle_interrupt(Stop => :immediate, &)

      # Takes a stop raised after its item or chunk ended (it was pending
      # under the mask), so that it cannot reach the next one.
      # @return [Stop, nil]
      def drain
        return nil unless Thread.pending_interrupt?(Stop)

        immediate { Thread.pass } while Thread.pending_interrupt?(Stop)
      rescue Stop => e
        e
      end

      # The watcher: raises a TimeoutError into the runner once the timed
      # item running passes its deadline.
      def watch
        @lock.synchronize do
          until @closed
            left = @item && (@item[1] - Process.clock_gettime(Process::CLOCK_MONOTONIC))
            next @wake.wait(@lock, left && [left, 0.0005].max) unless left && left <= 0

            @thread.raise(Stop.new(timeout_error(@item[0])))
            @item = nil
          end
        end
      end

      def timeout_error(item)
        TimeoutError.new("item #{Error.describe(item)} took longer than #{@item_timeout} s")
      end

      # Sends a chunk's results at once; if one cannot be copied out of the
      # ractor, sends them with those that cannot replaced by errors.
      def hand_over(message)
        Ractor.main.send([@token, message])
      rescue StandardError
        kind, results, cancelled = message
        Ractor.main.send([@token, [kind, results.map { |result| copyable(result) }, cancelled]])
      end

      def copyable(result)
        Ractor.make_shareable(result, copy: true) # a trial copy: the send copies it again, unfrozen
        result
      rescue StandardError => e
        [:raised, RactorException.pack(UnmarshalableError.new("a #{result.last.class} cannot be copied out of a " \
                                                              "worker ractor: #{e.message}; return plain data"))]
      end
    end
  end
end
