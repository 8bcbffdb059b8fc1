# frozen_string_literal: true

require "etc"
require_relative "client"
require_relative "keys"
require_relative "config"
require_relative "script"
require_relative "scripts"
require_relative "errors"
require_relative "codec"
require_relative "directory"
require_relative "node"
require_relative "heartbeat"
require_relative "publisher"
require_relative "entry_run"
require_relative "lane"

module Heddle
  module Workers
    module Redis
      # The `heddle worker` process: loads the files that define handlers,
      # then serves every pool of those handlers on one Redis with
      # `concurrency` lanes (threads, fibers under Heddle.run, or forked
      # processes, each reading its own entries) until SIGTERM or SIGINT.
      #
      # The first signal drains: lanes take no more entries and finish the
      # one they run; an entry still running after `drain_timeout` seconds,
      # or at a second signal, is handed back to the other workers at once
      # (its results so far delivered). Starting or stopping a worker at any
      # time loses nothing: entries of a worker that dies without draining
      # are taken over once its heartbeat lapses. Lane processes end with
      # their main process, handing their entries back.
      class Daemon
        # Lane kinds, by `--worker`.
        KINDS = %i[thread fiber process].freeze
        # Seconds a drain may take before running entries are handed back.
        DRAIN_TIMEOUT = 30
        # What the signal pipe carries: the first letter of each signal.
        SIGNALS = { "T" => "SIGTERM", "I" => "SIGINT" }.freeze

        # The options that name a client certificate and its key.
        CLIENT_FILES = "--tls-cert-file/--tls-key-file"

        # The server refused the worker at start (credentials, db): it exits 1.
        class RefusedError < StandardError; end

        # @param url [String] redis://host:port/db
        # @param requires [Array<String>] files that define handlers (Heddle.handler)
        # @param concurrency [Integer] lanes: items run at once
        # @param kind [Symbol] :thread, :fiber or :process
        # @param logger [Logger]
        # @param drain_timeout [Numeric] seconds
        # @param options [Hash] {Config::OPTIONS}: namespace:, format:, secret:/secret_file:, credentials, TLS files
        # @raise [ArgumentError] naming a bad option
        # @raise [LoadError] naming the gem to add when redis-client is missing
        def initialize(url:, logger:, requires: [], concurrency: 1, kind: :thread, # rubocop:disable Metrics/ParameterLists -- the command line's options
                       drain_timeout: DRAIN_TIMEOUT, **options)
          # Here, not at load: `heddle worker --help` needs only this class's constants.
          Client.load_gem
          @config = Config.new(url: url, **options)
          raise ArgumentError, "concurrency must be a positive Integer, got #{concurrency.inspect}" unless
            concurrency.is_a?(Integer) && concurrency.positive?
          unless KINDS.include?(kind)
            raise ArgumentError,
                  "worker must be one of #{KINDS.join(', ')}, got #{kind.inspect}"
          end

          @requires = requires
          @concurrency = concurrency
          @kind = kind
          @logger = logger
          @drain_timeout = drain_timeout
        end

        # Serves until told to stop.
        # @return [Integer] the exit status
        # @raise [ArgumentError] when the required files define no handler
        def run
          load_handlers
          @handlers = Handlers.names
          raise ArgumentError, "no handler is defined: --require a file that calls Heddle.handler(:name) { ... }" if
            @handlers.empty?

          check_server
          @signals = install_traps
          log_start
          @kind == :process ? run_processes : run_lanes(@concurrency, slots: @concurrency)
          @logger.info("stopped")
          0
        end

        private

        # Refused credentials, a db the server lacks or an untrusted TLS
        # certificate end the worker at start, in one line (a worker that
        # stayed up would log for ever); a server that is down or loading is
        # waited for by the lanes.
        def check_server
          client = @config.connect
          client.call("PING")
        rescue RedisClient::Error => e
          if Client.auth?(e)
            raise RefusedError, "#{@config.redacted} refused the credentials (#{e.message}); set --username and " \
                                "--password-file (or HEDDLE_REDIS_USERNAME, HEDDLE_REDIS_PASSWORD[_FILE])"
          end
          raise RefusedError, @config.db_refused(e) if Client.db_refused?(e)
          raise RefusedError, @config.tls_refused(e, trust: "--tls-ca-file", client: CLIENT_FILES) if
            Client.tls_refused?(e)

          hint = @config.client_certificate_hint(e, client: CLIENT_FILES)
          @logger.warn("#{@config.redacted} closed the connection at start (#{e.message})#{hint}") unless hint.empty?
        ensure
          client&.close
        end

        # A file that raises while it loads (a typo, a missing constant, an
        # ArgumentError of its own) ends the worker in one line naming the
        # file and where, not with a backtrace or a usage message.
        def load_handlers
          @requires.each do |file|
            require File.expand_path(file)
          rescue StandardError, ScriptError => e
            where = Array(e.backtrace).find { |line| line.include?(File.basename(file)) }
            raise RefusedError, "--require #{file} raised while loading: #{e.class}: " \
                                "#{e.message.lines.first.to_s.chomp}#{" (#{where})" if where}"
          end
        end

        def log_start
          @logger.info("serving #{@handlers.map(&:inspect).join(', ')} from #{@config.redacted} (namespace " \
                       "#{@config.keys.namespace}, format #{@config.codec.format}" \
                       "#{', signed' if @config.codec.signer}) with #{@concurrency} #{@kind} " \
                       "lane#{'s' unless @concurrency == 1}")
          warn_unsigned if @config.unsigned_remote?
        end

        def warn_unsigned
          @logger.warn("no secret: anyone who can write to #{@config.redacted} can have this worker run its " \
                       "handlers on items of their choosing and forge results for any caller; give every worker " \
                       "and caller the same secret (--secret-file, secret:; see docs/redis.md)")
        end

        def install_traps
          reader, writer = IO.pipe
          %w[TERM INT].each do |signal|
            trap(signal) { writer.write_nonblock(signal[0], exception: false) }
          end
          reader
        end

        # Lanes in this process; the heartbeat registers `slots` unless nil.
        def run_lanes(count, slots:, parent: nil)
          node = Node.new(config: @config, handlers: @handlers, logger: @logger)
          heartbeat = Heartbeat.new(node, slots: slots)
          lanes = Array.new(@kind == :fiber ? 1 : count) { |slot| start_lane(node, slot, count) }
          until lanes.none?(&:alive?)
            watch(node, heartbeat, parent)
            replace_lanes(node, lanes, count)
          end
          lanes.each(&:join)
        ensure
          heartbeat&.stop
        end

        # A lane thread (for fibers: the thread of all the fiber lanes).
        def start_lane(node, slot, count)
          return Workers.thread { fiber_lanes(node, count) } if @kind == :fiber

          Workers.thread { Lane.new(node, slot).run }
        end

        # A lane thread that ended while the worker serves (a handler called
        # Thread.exit, EntryRun failed its item) is started again, as a dead
        # lane process is: else the worker would serve with fewer lanes, and
        # stop serving (while still registered) once none is left.
        def replace_lanes(node, lanes, count)
          return if node.draining?

          lanes.each_with_index do |lane, slot|
            next if lane.alive?

            @logger.warn("lane #{slot} ended; starting another")
            lanes[slot] = start_lane(node, slot, count)
          end
        end

        def fiber_lanes(node, count)
          Heddle.run do
            count.times { |i| Heddle.concurrently { Lane.new(node, i).run } }
          end
        end

        # Waits a little for signals (or the parent's death) and acts on each:
        # the first drains, the next hands the running entries back.
        def watch(node, heartbeat, parent)
          signals = @signals.wait_readable(0.2) && @signals.read_nonblock(16, exception: false)
          orphaned(heartbeat) if parent && Process.ppid != parent
          return unless signals.is_a?(String)

          signals.each_char { |signal| act(node, SIGNALS[signal]) }
          heartbeat.wake_lanes
        end

        # The main process of a `--worker process` worker ended without
        # stopping its lanes (kill -9, a crash): this lane process ends too,
        # at once, as a thread lane would have, handing its running entry
        # back for another worker to take over (the item it was in runs
        # again). It logs nothing: a line from every lane process said only
        # what the user had just done, under the dead process's pid.
        def orphaned(heartbeat)
          heartbeat.hand_back
          exit!(0)
        end

        def act(node, why)
          if node.draining?
            @logger.info("stopping now (#{why}): handing running entries back")
            node.drain!(0)
          else
            @logger.info("draining (#{why})")
            node.drain!(@drain_timeout)
          end
        end

        # `--worker process`: forked lane processes, replaced when they die;
        # this process registers them and forwards signals.
        def run_processes
          node = Node.new(config: @config, handlers: @handlers, logger: @logger)
          heartbeat = Heartbeat.new(node, slots: @concurrency, directory: false)
          children = Array.new(@concurrency) { |i| [fork_lane(i), i] }.to_h
          supervise(node, children) until children.empty?
        ensure
          heartbeat&.stop
        end

        # Forwards signals to the lane processes (each drains, then releases
        # at a second one) and replaces lane processes that die.
        def supervise(node, children)
          signal = @signals.wait_readable(0.2) && @signals.read_nonblock(16, exception: false)
          if signal.is_a?(String)
            node.drain!(0)
            children.each_key { |pid| Process.kill("TERM", pid) }
          end
          reap(node, children)
        rescue Errno::ECHILD
          children.clear
        end

        def reap(node, children)
          while (pid, status = Process.wait2(-1, Process::WNOHANG))
            index = children.delete(pid) or next
            next if node.draining?

            @logger.warn("lane process #{pid} ended (#{status}); starting another")
            children[fork_lane(index)] = index
          end
        end

        def fork_lane(_index)
          parent = Process.pid
          fork do
            @signals = install_traps
            run_lanes(1, slots: nil, parent: parent)
            exit!(0)
          end
        end
      end
    end
  end
end
