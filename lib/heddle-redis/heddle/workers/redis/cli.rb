# frozen_string_literal: true

require "optparse"
require "logger"
require_relative "codec"

module Heddle
  module Workers
    module Redis
      # `heddle worker`: parses the command line and runs a {Daemon}.
      #
      # @example
      #   heddle worker --redis redis://127.0.0.1:6379/0 --require ./app.rb --concurrency 4 --worker process
      class CLI
        USAGE = <<~TEXT
          Usage: heddle worker --redis URL --require FILE [options]
          Serves every Redis pool whose handler the required files define (Heddle.handler); see docs/redis.md.
        TEXT

        # @param argv [Array<String>]
        # @param out [IO] where the log goes
        def initialize(argv, out: $stdout)
          @argv = argv
          @out = out
          @options = { url: ENV.fetch("HEDDLE_REDIS_URL", nil), requires: [], concurrency: 1, kind: :thread,
                       drain_timeout: Daemon::DRAIN_TIMEOUT, level: Logger::INFO }
          @config = {}
        end

        # @return [Integer] the exit status (2 for a bad command line)
        def run
          parser.parse!(@argv)
          raise OptionParser::InvalidArgument, "unexpected #{@argv.join(' ')}" unless @argv.empty?
          raise OptionParser::MissingArgument, "--redis URL (or HEDDLE_REDIS_URL)" unless @options[:url]

          daemon.run
        rescue OptionParser::ParseError, ArgumentError => e
          warn "heddle worker: #{e.message}\n#{parser}"
          2
        rescue LoadError, Daemon::RefusedError => e
          warn "heddle worker: #{e.message}"
          1
        end

        private

        def daemon
          @out.sync = true if @out.respond_to?(:sync=)
          Daemon.new(url: @options[:url], requires: @options[:requires], concurrency: @options[:concurrency],
                     kind: @options[:kind], drain_timeout: @options[:drain_timeout], logger: logger, **@config)
        end

        def logger
          logger = Logger.new(@out, level: @options[:level], progname: "heddle worker #{Process.pid}")
          logger.formatter = proc do |severity, time, progname, message|
            "#{time.utc.strftime('%Y-%m-%dT%H:%M:%S.%LZ')} #{severity} #{progname}: #{message}\n"
          end
          logger
        end

        def parser
          @parser ||= OptionParser.new do |o|
            o.banner = USAGE
            o.on("--redis URL", "redis://host:port/db (default: HEDDLE_REDIS_URL)") { |v| @options[:url] = v }
            o.on("--require FILE", "a file defining handlers; repeat for more") { |v| @options[:requires] << v }
            o.on("--concurrency N", Integer, "items run at once (default 1)") { |v| @options[:concurrency] = v }
            o.on("--worker KIND", Daemon::KINDS, "thread (default), fiber or process") { |v| @options[:kind] = v }
            o.on("--drain-timeout S", Float, "seconds a drain may take (default #{Daemon::DRAIN_TIMEOUT})") do |v|
              @options[:drain_timeout] = v
            end
            o.on("--quiet", "log warnings only (no line per batch)") { @options[:level] = Logger::WARN }
            connection_options(o)
            limits_option(o)
          end
        end

        # The {Config} options: where the keys live, the wire format, and
        # secrets read from files (never from the command line, which `ps` shows).
        def connection_options(o) # rubocop:disable Naming/MethodParameterName -- as the parser block's `o` above
          o.on("--namespace NS", "the callers' namespace: (default heddle, or HEDDLE_REDIS_NAMESPACE)") do |v|
            @config[:namespace] = v
          end
          o.on("--format FORMAT", Codec::FORMATS, "json (default) or marshal_trusted_redis_only") do |v|
            @config[:format] = v
          end
          o.on("--secret-file FILE", "sign and check entries with this secret (or HEDDLE_REDIS_SECRET[_FILE])") do |v|
            @config[:secret_file] = v
          end
          o.on("--username NAME", "ACL user (or HEDDLE_REDIS_USERNAME)") { |v| @config[:username] = v }
          o.on("--password-file FILE", "password (or HEDDLE_REDIS_PASSWORD[_FILE])") { |v| @config[:password_file] = v }
          o.on("--tls-ca-file FILE", "trust this CA for rediss://") { |v| @config[:ssl_ca_file] = v }
          o.on("--tls-cert-file FILE", "client certificate for rediss://") { |v| @config[:ssl_cert_file] = v }
          o.on("--tls-key-file FILE", "client key for rediss://") { |v| @config[:ssl_key_file] = v }
        end

        def limits_option(o) # rubocop:disable Naming/MethodParameterName -- as the parser block's `o` above
          defaults = Limits::DEFAULTS.map { |key, value| "#{key}=#{value}" }.join(",")
          o.on("--limits LIST", Array, "what one payload read may cost: bytes=N,digits=N,depth=N (#{defaults})") do |v|
            @config[:limits] = limits(v)
          end
        end

        # "bytes=N,digits=N" as {Limits} takes it; {Limits} checks the keys and ranges.
        def limits(pairs)
          pairs.to_h do |pair|
            key, value = pair.split("=", 2)
            raise OptionParser::InvalidArgument, "--limits #{pair}: write KEY=INTEGER" unless /\A\d+\z/.match?(value)

            [key.to_sym, Integer(value, 10)]
          end
        end
      end
    end
  end
end
