# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # The caller's side of a pool, in a thread of its own with its own
      # connection: reads the workers' result batches from the pool's results
      # stream and reports them to their jobs, keeps the pool's keys alive
      # (they expire ttl after the caller stops doing so: a caller that dies
      # leaves nothing behind), fails items no live worker can run, and rides
      # out a broken connection.
      #
      # Results are read with XREAD from the last id seen, not popped: a
      # connection that breaks mid-reply loses nothing, the next read asks
      # again from the same id.
      class Collector
        # Seconds a read blocks: how soon the periodic work below runs when no
        # result comes (shutdown wakes the read at once with CLIENT UNBLOCK).
        TICK = 0.25
        # Result entries per read.
        COUNT = 256
        # Seconds between looks at who serves the handler while items wait.
        CHECK = 0.5
        # Seconds the live workers must all lack the handler before its items
        # fail: a worker that knows it may be starting right now.
        NO_WORKER_GRACE = 1.0
        # Seconds between attempts to reconnect, at most.
        MAX_BACKOFF = 0.5

        # @return [Integer, nil] this connection's id on the server (to wake it)
        attr_reader :client_id

        # @param backend [Backend]
        def initialize(backend)
          @backend = backend
          @keys = backend.keys
          @last = "0-0"
          @stopping = false
          @due = Hash.new(0.0)
          @thread = Workers.thread { run }
          @thread.name = "heddle redis collector #{backend.pool_id}"
          @thread.report_on_exception = true
        end

        # Asks the thread to end (safe from a finalizer: no lock).
        # @return [void]
        def stop_soon = @stopping = true

        # @param timeout [Numeric] seconds to wait for the thread
        # @return [void]
        def join(timeout) = @thread.join(timeout)

        private

        def run
          @client = @backend.config.connect
          step_or_reconnect until done?
          @backend.remove_keys(@client) if @backend.released?
        ensure
          @client&.close
        end

        # Stopping, and nothing left to wait for (or the connection is gone:
        # the waiting jobs were cancelled by the shutdown).
        def done? = @stopping && (@backend.released? || @backend.idle? || @lost_since)

        # Nothing Redis answers ends the thread: a refusal for now (LOADING,
        # BUSY, READONLY, OOM...) or a broken connection is retried with
        # backoff until reconnect_timeout, then fails the waiting items;
        # refused credentials fail them at once.
        def step_or_reconnect
          step
        rescue RedisClient::Error => e
          Client.auth?(e) ? refused(e) : lost(e)
        rescue StandardError => e
          lost(e) # a bug of ours must not hang the map either: it fails after reconnect_timeout
        end

        def step
          @client_id ||= @client.call("CLIENT", "ID")
          reply = @client.blocking_call(TICK + Client::TIMEOUT, "XREAD", "COUNT", COUNT, "BLOCK", (TICK * 1000).to_i,
                                        "STREAMS", @keys[:results], @last)
          recovered if @lost_since
          reply&.each_value { |entries| entries.each { |id, fields| route(id, fields) } }
          periodic
        end

        # One result batch to its ticket. A batch that fails its signature
        # or does not decode, and a result for an index outside its job, are
        # refused: logged once per pool, counted, and never fail an item (a
        # genuine result for it may still come).
        def route(id, fields)
          @last = id
          fields = fields.each_slice(2).to_h
          ticket = @backend.ticket(fields["j"].to_i) or return
          why = forged(fields)
          return @backend.refused(why) if why

          outside = ticket.deliver(@backend.codec.load_batch(fields["p"]))
          @backend.refused("#{outside} of its results name an index outside job #{fields['j']}") if outside.positive?
        rescue Codec::DecodeError => e
          @backend.refused("it does not decode as #{@backend.codec.format} (#{e.message})")
        end

        # Why a batch's signature is wrong, or nil when right (or no secret is set).
        def forged(fields)
          signer = @backend.codec.signer or return nil
          return nil if signer.valid?(Signer.batch_parts(@keys[:results], fields["j"], fields["p"]), fields["s"])

          "its signature is #{fields['s'].to_s.empty? ? 'missing' : 'wrong'} (written by a worker without this " \
            "pool's secret, or by someone else)"
        end

        def periodic
          now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          keepalive if due?(:keepalive, now, @backend.ttl / 4.0)
          check_workers(now) if @backend.waiting? && due?(:check, now, CHECK)
          trim if due?(:trim, now, TICK)
          @backend.retire_finished(@client)
        end

        def due?(what, now, every)
          return false if now < @due[what]

          @due[what] = now + every
        end

        def keepalive
          recreate unless Scripts::KEEPALIVE.call(@client, @backend.keepalive_keys, [@backend.pool_id,
                                                                                     @backend.ttl_ms]) == 1
        end

        # Drops the result entries already read.
        def trim
          return if @last == @trimmed

          @client.call("XTRIM", @keys[:results], "MINID", @last)
          @trimmed = @last
        end

        # Items fail, after a grace, when workers are alive but none can run
        # them: none knows the handler, or those that do lack the pool's
        # secret (they would refuse its entries, or it their results).
        def check_workers(now)
          why = unserved
          return @no_worker_since = nil unless why

          @no_worker_since ||= now
          return unless now - @no_worker_since >= NO_WORKER_GRACE

          @backend.fail_waiting { |index, item| why.call(index, item) }
        end

        # @return [Proc, nil] what makes a waiting item's error, when no live worker can run it
        def unserved
          alive, serving, _slots, mine = @backend.servers(@client)
          return ->(index, item) { no_worker(index, item, alive) } if serving.empty? && !alive.empty?

          ->(index, item) { no_secret(index, item, serving) } if mine.empty? && !serving.empty?
        end

        def no_worker(index, item, alive)
          handler = @backend.handler_name.inspect
          NoWorkerError.new("item #{Error.describe(item)} (index #{index}) of handler #{handler}: no worker knows " \
                            "the handler; the live workers on #{Client.redact(@backend.url)} " \
                            "(#{alive.first(5).join(', ')}) were started without it: start `heddle worker --require " \
                            "FILE` with the file that defines Heddle.handler(#{handler})",
                            item: item, index: index)
        end

        def no_secret(index, item, serving)
          handler = @backend.handler_name.inspect
          have = @backend.codec.signer ? "do not have this pool's secret" : "have a secret, and this pool has none"
          NoWorkerError.new("item #{Error.describe(item)} (index #{index}) of handler #{handler}: the workers that " \
                            "know the handler on #{Client.redact(@backend.url)} (#{serving.first(5).join(', ')}) " \
                            "#{have}: give both the same secret (secret:, `heddle worker --secret-file`) or none",
                            item: item, index: index)
        end

        # The connection broke: try again (redis-client reconnects on the next
        # command) until reconnect_timeout has passed, then fail what waits.
        def lost(error)
          @client_id = nil
          @client.close if error.is_a?(RedisClient::CommandError) # e.g. LOADING: reconnect, as after a restart
          now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          @lost_since ||= now
          if now - @lost_since >= @backend.reconnect_timeout
            @backend.fail_waiting { |index, item| connection_lost(index, item, error) }
          end
          sleep([MAX_BACKOFF, 0.05 * (2**[@attempts = (@attempts || 0) + 1, 4].min)].min)
        end

        def refused(error)
          @backend.fail_waiting do |index, item|
            AuthenticationError.new("item #{Error.describe(item)} (index #{index}) of handler " \
                                    "#{@backend.handler_name.inspect} has no result: #{@backend.config.redacted} " \
                                    "refused the credentials (#{error.message})", item: item, index: index)
          end
          sleep MAX_BACKOFF
        end

        def connection_lost(index, item, error)
          ConnectionLostError.new("item #{Error.describe(item)} (index #{index}) of handler " \
                                  "#{@backend.handler_name.inspect} has no result: " \
                                  "#{Client.outage(@backend.url, error, @backend.reconnect_timeout)}",
                                  item: item, index: index)
        end

        # Back after a broken connection: Redis may have restarted, losing
        # writes (or everything, without persistence). What is missing is put
        # back: the pool's keys, and the entries of items still waiting.
        def recovered
          @lost_since = @attempts = nil
          keepalive
          @backend.republish_missing(@client)
        end

        def recreate
          @backend.create_keys(@client)
        end
      end
    end
  end
end
