# frozen_string_literal: true

require "heddle/masked_lock"
require "heddle/masks"
require "heddle/workers/backend"
require "securerandom"
require_relative "client"
Heddle::Workers::Redis::Client.load_gem
require_relative "keys"
require_relative "config"
require_relative "script"
require_relative "scripts"
require_relative "errors"
require_relative "codec"
require_relative "ticket"
require_relative "publisher"
require_relative "collector"

module Heddle
  module Workers
    module Redis
      # The caller's side of `Heddle::Pool.new(worker: :redis, handler:, url:)`:
      # a stream of items per pool on one Redis, which `heddle worker`
      # processes anywhere read through a consumer group, and a
      # {Collector} thread that takes their results back. Maps and submits
      # behave as on the local backends (input order, timeouts, fail_fast or
      # collected errors, the same error classes), plus {ConnectionLostError}
      # and {NoWorkerError}.
      class Backend < Workers::Backend
        # Defaults, in seconds. visibility_timeout: how long an entry a worker
        # took may go untouched (its worker dead or stopped) before another
        # worker takes it; live workers touch theirs, so a long item is not
        # taken from a working worker. ttl: how long the pool's keys outlive
        # a caller that stopped renewing them. reconnect_timeout: how long a
        # broken connection may take to come back before waiting items fail.
        DEFAULTS = { visibility_timeout: 30, ttl: 60, reconnect_timeout: 10 }.freeze
        # The least each may be: ttl must outlive a few keepalives (one every
        # ttl / 4, while the collector ticks every 0.25 s), and heartbeats
        # touch running entries every third of the visibility timeout.
        MINIMUMS = { visibility_timeout: 0.5, ttl: 2.0, reconnect_timeout: 0.1 }.freeze
        # The most each may be (30 days): Redis takes expiries in ms as 64-bit integers, and longer is a mistake.
        MAXIMUM = 30 * 86_400
        # Slots assumed when no live worker knows the handler yet (planning only).
        DEFAULT_SLOTS = 4
        # Seconds a known slot count is trusted before a map asks again.
        SLOTS_AGE = 1.0

        # @return [String] the Redis URL
        attr_reader :url
        # @return [Config] the server, namespace and wire format
        attr_reader :config
        # @return [Codec]
        attr_reader :codec
        # @return [Symbol] the handler's name
        attr_reader :handler_name
        # @return [String] this pool's id, unique on the server
        attr_reader :pool_id
        # @return [Hash{Symbol => String}] this pool's keys (:items, :results, :meta, :pools)
        attr_reader :keys
        # @return [Numeric] seconds
        attr_reader :ttl, :reconnect_timeout

        # @param options [Hash] the caller's `handler:`, `url:` and the {DEFAULTS}' keys
        # @param block [Proc, nil] must be nil: workers cannot receive a block
        # @return [void]
        # @raise [ArgumentError] naming the bad option and its value
        def self.validate!(block, options)
          raise ArgumentError, "worker: :redis takes handler: (a name given to Heddle.handler), not a block" if block

          unknown = options.keys - %i[handler url] - DEFAULTS.keys - Config::OPTIONS
          raise ArgumentError, "unknown option(s) #{unknown.map { |k| "#{k}:" }.join(', ')} for worker: :redis" if
            unknown.any?

          validate_handler!(options[:handler])
          Client.validate_url!(options[:url])
          DEFAULTS.each_key { |key| validate_seconds!(key, options.fetch(key, DEFAULTS[key])) }
          Config.new(url: options[:url], **options.slice(*Config::OPTIONS))
        end

        # The options of a pool for a map bounded by +seconds+ (Heddle.map's
        # timeout:): it gives up connecting by then (Heddle.map(timeout: 2) on
        # a silent port ended after 10 s, the reconnect_timeout, each attempt
        # waiting the client's 5 s).
        # @param options [Hash] checked by {.validate!}
        # @param seconds [Numeric]
        # @return [Hash] options, or a copy with a shorter reconnect_timeout
        def self.within(options, seconds)
          limit = options.fetch(:reconnect_timeout, DEFAULTS[:reconnect_timeout])
          return options if limit <= seconds

          options.merge(reconnect_timeout: seconds)
        end

        # @api private
        def self.validate_seconds!(key, value)
          return if value.is_a?(Numeric) && value.real? && value.to_f.finite? && value >= MINIMUMS[key] &&
                    value <= MAXIMUM

          raise ArgumentError, "#{key}: must be seconds from #{MINIMUMS[key]} to #{MAXIMUM}, got #{value.inspect}"
        end

        # @api private
        def self.validate_handler!(name)
          raise ArgumentError, "worker: :redis needs handler: (a name given to Heddle.handler)" if name.nil?

          key = Handlers.validate_name!(name)
          return if Handlers[key]

          raise ArgumentError, "unknown handler #{key.inspect} (this process knows #{Handlers.names.inspect}); " \
                               "define it with Heddle.handler(#{key.inspect}) { |item| ... } in a file the caller " \
                               "and every `heddle worker --require` load"
        end

        # @param size [Integer, nil] slots to plan chunks for (default: the live workers' own count)
        # @param handler [Symbol, String] a name given to {Heddle.handler}
        # @param url [String] redis://host:port/db
        # @param item_timeout [Numeric, nil] seconds per item, enforced on the worker
        # @param options [Hash] visibility_timeout:, ttl:, reconnect_timeout: (seconds, see {DEFAULTS}),
        #   and {Config::OPTIONS} (namespace:, format:, secret:, credentials, TLS files)
        # @raise [ConnectionLostError] when Redis cannot be reached
        # @raise [AuthenticationError] when it refuses the credentials
        # @raise [ArgumentError] when it refuses the URL's db
        # @raise [TLSError] when the TLS handshake fails for good (an untrusted certificate)
        def initialize(size:, handler:, url:, item_timeout: nil, **options)
          # No check here: Heddle::Pool builds it from options Workers::PoolOptions.check! has passed.
          settings = DEFAULTS.merge(options.slice(*DEFAULTS.keys))
          @handler_name = handler.to_sym
          @url = url
          @config = Config.new(url: url, **options.slice(*Config::OPTIONS))
          @codec = @config.codec
          @visibility_ms = (settings[:visibility_timeout] * 1000).ceil
          @ttl = settings[:ttl]
          @reconnect_timeout = settings[:reconnect_timeout]
          super(size: size, handler: nil, item_timeout: item_timeout)
        end

        # @return [Integer] the slots maps are planned for
        def size = @size || [@slots || 0, 1].max

        # @return [Integer] the ttl in milliseconds
        def ttl_ms = (@ttl * 1000).ceil

        # @api private
        # @return [Ticket, nil] the waiting job numbered number
        def ticket(number) = @lock.synchronize { @tickets[number] }

        # @api private
        # @return [Boolean] whether any job waits for results
        def waiting? = @lock.synchronize { @tickets.any? }

        # @api private
        # @return [Boolean] whether no job is left (the collector may stop)
        def idle? = @lock.synchronize { @tickets.empty? }

        # @api private
        # @return [Boolean] the pool was dropped without a shutdown (finalizer)
        def released? = @released

        # @api private
        # Fails every waiting item; the block gives each index's error.
        # @yieldparam index [Integer] @yieldparam item [Object]
        # @return [void]
        def fail_waiting(&block)
          tickets = @lock.synchronize { @tickets.values }
          tickets.each { |t| t.fail_unreported { |index| block.call(index, t.job.items[index]) } }
        end

        # @api private
        # Forgets finished jobs and deletes their entries, so workers skip what
        # a failed or timed-out map left behind.
        # @param client [RedisClient]
        # @return [void]
        def retire_finished(client)
          done = @lock.synchronize do
            @tickets.select { |_, t| t.finished? }.each_key { |n| @tickets.delete(n) }.values
          end
          delete_jobs(client, done) unless done.empty?
        end

        # @api private
        # Deletes the entries and won keys of jobs that are over.
        # @param client [RedisClient]
        # @param tickets [Array<Ticket>]
        # @return [void]
        def delete_jobs(client, tickets)
          ids = tickets.flat_map { |t| t.entries.filter_map(&:id) }
          client.call_v(["XDEL", @keys[:items], *ids]) unless ids.empty?
          client.call_v(["UNLINK", *tickets.map { |t| @ns.won(@pool_id, t.number) }])
        end

        # @api private
        # Puts back the entries of waiting items that Redis no longer has.
        # @param client [RedisClient]
        # @return [void]
        def republish_missing(client)
          entries = @lock.synchronize { @tickets.values }.flat_map(&:open_entries)
          return if entries.empty?

          present = client.pipelined { |pipe| entries.each { |e| pipe.call("XRANGE", @keys[:items], e.id, e.id) } }
          @publisher.send_entries(client, entries.zip(present).select { |_, found| found.empty? }.map(&:first))
        end

        # @api private
        # @return [(Array<String>, Array<String>, Integer, Array<String>)] live workers, those that know the
        #   handler, their slots, and those of them that have this pool's secret (or, like it, none)
        def servers(client)
          alive, serving, slots, prints = Scripts::SERVERS.call(client, [@ns.workers, @ns.serves(@handler_name),
                                                                         @ns.slots, @ns.fingerprints], [])
          @slots = slots
          @slots_at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          mine = Signer.fingerprint(@codec.signer)
          [alive, serving, slots, serving.zip(prints).filter_map { |id, print| id if print == mine }]
        end

        # @api private
        # A result batch, or a result in one, refused (forged, replayed,
        # junk): counted, and the first logged with why. It fails no item.
        # @param why [String]
        # @return [void]
        def refused(why)
          return unless @lock.synchronize { (@refusals += 1) == 1 }

          warn("heddle: #{@handler_name} pool #{@pool_id} refused a result batch from Redis: #{why}; later " \
               "refusals are counted, not logged (a refused batch fails no item)")
        end

        # @return [Integer] result batches (or results in them) refused so far
        def refusals = @lock.synchronize { @refusals }

        # @api private
        # @return [Array<String>] the keys the keepalive script renews
        def keepalive_keys = [@keys[:pools], @keys[:items], @keys[:results], @keys[:meta]]

        # @api private
        # Creates the pool's stream, group, results stream and meta, lists the
        # pool and tells the workers.
        # @param client [RedisClient]
        # @return [void]
        def create_keys(client)
          client.pipelined do |pipe|
            pipe.call("DEL", @keys[:items], @keys[:results])
            pipe.call("XGROUP", "CREATE", @keys[:items], Keys::GROUP, "0", "MKSTREAM")
            pipe.call("XGROUP", "CREATE", @keys[:results], "caller", "$", "MKSTREAM") # the key must exist: see DELIVER
            pipe.call("HSET", @keys[:meta], "handler", @handler_name, "visibility", @visibility_ms, "ttl", ttl_ms)
          end
          Scripts::KEEPALIVE.call(client, keepalive_keys, [@pool_id, ttl_ms])
          client.call("PUBLISH", @ns.announce, @handler_name)
        end

        # @api private
        # Deletes the pool's keys and tells the workers (best effort).
        # @param client [RedisClient]
        # @return [void]
        def remove_keys(client)
          won = (1..@numbers).map { |number| @ns.won(@pool_id, number) }
          client.pipelined do |pipe|
            pipe.call("DEL", @keys[:items], @keys[:results], @keys[:meta])
            won.each_slice(1000) { |keys| pipe.call_v(["UNLINK", *keys]) }
            pipe.call("ZREM", @keys[:pools], @pool_id)
            pipe.call("PUBLISH", @ns.announce, @handler_name)
          end
        rescue RedisClient::Error
          nil # the keys expire by themselves after ttl
        end

        private

        def start
          @pool_id = "#{Codec.host}-#{Process.pid}-#{SecureRandom.hex(4)}"
          @ns = @config.keys
          @keys = { items: @ns.items(@pool_id), results: @ns.results(@pool_id), meta: @ns.meta(@pool_id),
                    pools: @ns.pools(@handler_name) }
          @lock = Heddle::MaskedLock.new
          @tickets = {}
          @numbers = 0
          @refusals = 0
          @released = false
          @publisher = Publisher.new(@keys[:items], @handler_name, @item_timeout, @codec)
          # (a short reconnect_timeout, e.g. a map's timeout:, bounds the wait for a silent server too)
          @command = @config.connect(timeout: [Client::TIMEOUT, @reconnect_timeout].min)
          @command_lock = Mutex.new # held across Redis calls: a wait for it stays interruptible
          command("could not create the pool") do |client|
            create_keys(client)
            servers(client)
          end
          @collector = Collector.new(self)
        rescue StandardError
          @command&.close # refused (credentials, db, TLS) or unreachable: no pool, no open connection
          raise
        end

        # Maps and submits as Workers::Backend's, which hands their jobs here:
        # a job goes to the stream whole, for the workers to take (an empty
        # map sends nothing). The job carries no block (the pool has none).
        def dispatch(job, _timeout)
          publish(job) unless job.items.empty?
        end

        # Plans a job's entries and adds them to the stream.
        def publish(job)
          ensure_running!
          ticket = Ticket.new(job, @lock.synchronize { @numbers += 1 }, @codec)
          @publisher.plan(ticket, planned_slots)
          return if job.finished?

          @lock.synchronize { @tickets[ticket.number] = ticket }
          command("could not send #{job.items.size} items") { |client| @publisher.send_entries(client, ticket.entries) }
        rescue ConnectionLostError => e
          job.cancel(e) # the collector forgets it; a submit's promise is rejected with it
          raise
        end

        def planned_slots
          return @size if @size

          if @slots_at.nil? || Process.clock_gettime(Process::CLOCK_MONOTONIC) - @slots_at > SLOTS_AGE
            command("could not count the workers") { |client| servers(client) }
          end
          @slots.positive? ? @slots : DEFAULT_SLOTS
        end

        # Runs a command on the caller's connection; retries a broken
        # connection or a server that refuses for now (LOADING, BUSY,
        # READONLY...) until reconnect_timeout, then raises
        # ConnectionLostError; refused credentials raise at once.
        def command(what)
          started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          begin
            @command_lock.synchronize { yield @command }
          rescue RedisClient::Error => e
            refused!(what, e)
            raise lost(what, e) if Process.clock_gettime(Process::CLOCK_MONOTONIC) - started >= @reconnect_timeout

            sleep 0.1
            retry
          end
        end

        # Errors asking again will not cure, raised at once naming the fix.
        def refused!(what, error)
          if Client.auth?(error)
            raise AuthenticationError, "#{what} for handler #{@handler_name.inspect}: #{@config.redacted} refused " \
                                       "the credentials (#{error.message}); set password:/username: (or " \
                                       "HEDDLE_REDIS_PASSWORD[_FILE], HEDDLE_REDIS_USERNAME)"
          end
          raise TLSError, "#{what} for handler #{@handler_name.inspect}: #{@config.tls_refused(error)}" if
            Client.tls_refused?(error)
          raise ArgumentError, "url: #{@config.db_refused(error)}" if Client.db_refused?(error)
          raise error unless Client.transient?(error)
        end

        def lost(what, error)
          ConnectionLostError.new("#{what} for handler #{@handler_name.inspect}: " \
                                  "#{Client.outage(@url, error, @reconnect_timeout)}" \
                                  "#{@config.client_certificate_hint(error)}")
        end

        def stop(kill:)
          if kill
            cancel_all("the pool was shut down")
          else
            @lock.synchronize { @tickets.values }.each { |t| t.job.wait }
          end
          @collector.stop_soon
          wake_collector
          @collector.join(Client::TIMEOUT)
          @command_lock.synchronize { remove_keys(@command) }
          @command.close
        end

        # The collector blocks in a read for up to a tick; wake it at once.
        def wake_collector
          id = @collector.client_id
          @command_lock.synchronize { @command.call("CLIENT", "UNBLOCK", id) } if id
        rescue RedisClient::Error
          nil
        end

        def cancel_all(why)
          @lock.synchronize { @tickets.values }.each do |t|
            t.job.cancel(CancelledError.new("#{why}; #{t.job.items.size - t.job.completed_count} items had no result"))
          end
        end

        # Finalizer (trap context: no lock): the collector deletes the keys and ends.
        def close_queue
          @released = true
          @collector&.stop_soon
        end
      end
    end
  end
end
