# frozen_string_literal: true

require "ipaddr"
require "uri"
require_relative "keys"
require_relative "codec"

module Heddle
  module Workers
    module Redis
      # What callers and workers need to reach the same pools: the server
      # (URL, credentials, TLS files), the namespace their keys live under,
      # and the wire format and signing secret. Credentials and the secret
      # come from options, or from the environment, or from a file, so that
      # they need not sit in a URL on every worker's command line.
      class Config
        # The options beside url:, as the caller's Pool and `heddle worker` take them.
        OPTIONS = %i[namespace format secret secret_file username password password_file ssl_ca_file ssl_cert_file
                     ssl_key_file limits].freeze
        # Environment variables read when the option is not given.
        ENV_NAMES = { namespace: "HEDDLE_REDIS_NAMESPACE", secret: "HEDDLE_REDIS_SECRET",
                      secret_file: "HEDDLE_REDIS_SECRET_FILE", username: "HEDDLE_REDIS_USERNAME",
                      password: "HEDDLE_REDIS_PASSWORD", password_file: "HEDDLE_REDIS_PASSWORD_FILE" }.freeze
        # The options that name files.
        FILES = %i[secret_file password_file ssl_ca_file ssl_cert_file ssl_key_file].freeze

        # @return [String] the URL as given
        attr_reader :url
        # @return [Keys]
        attr_reader :keys
        # @return [Codec]
        attr_reader :codec

        # @param url [String] redis://host:port/db or rediss://
        # @param env [Hash{String => String}] where unset options are looked up
        # @param options [Hash] see {OPTIONS}
        # @raise [ArgumentError] naming a bad option (a file that cannot be read, a bad namespace...)
        def initialize(url:, env: ENV, **options)
          unknown = options.keys - OPTIONS
          raise ArgumentError, "unknown option(s) #{unknown.map { |k| "#{k}:" }.join(', ')}" if unknown.any?

          @url = Client.validate_url!(url)
          settings = settings(env, options)
          @keys = Keys.new(settings.fetch(:namespace, Keys::DEFAULT_NAMESPACE))
          @codec = Codec.new(format: settings.fetch(:format, :json), secret: given(settings, :secret),
                             limits: settings[:limits])
          @username = settings[:username]
          @password = given(settings, :password)
          @ssl_params = ssl_params(settings)
        end

        # @param timeout [Numeric] seconds to connect, and for each reply
        # @return [RedisClient] a new connection (it connects on first use)
        def connect(timeout: Client::TIMEOUT)
          Client.load_gem
          options = { url: @url, connect_timeout: timeout, read_timeout: timeout, write_timeout: timeout, protocol: 3 }
          options[:username] = @username if @username
          options[:password] = @password if @password
          options.merge!(ssl: true, ssl_params: @ssl_params) unless @ssl_params.empty?
          RedisClient.config(**options).new_client
        end

        # @return [String] the URL without a password, for messages and logs
        def redacted = Client.redact(@url)

        # Whether entries and results travel unsigned through a server on
        # another machine, where others may write to it.
        # @return [Boolean]
        def unsigned_remote? = @codec.signer.nil? && !loopback?

        # @return [Boolean] whether the URL names this machine (localhost, 127.0.0.0/8, ::1)
        def loopback?
          host = URI.parse(@url).hostname.to_s
          host == "localhost" || IPAddr.new(host).loopback?
        rescue IPAddr::Error, URI::Error
          false
        end

        # @return [Integer] the db the URL selects
        def db
          Client.load_gem
          RedisClient.config(url: @url).db || 0
        end

        # Says that the server lacks the URL's db, for errors at start.
        # @param error [Exception] the server's answer
        # @return [String]
        def db_refused(error)
          answer = error.message.sub(%r{ \(rediss?://[^)]*\)\z}, "") # redis-client appends the URL: said already
          "#{redacted} names db #{db}, which the server does not have (#{answer}; a server has `databases` dbs, " \
            "16 by default: 0 to 15)"
        end

        # Says that the TLS handshake failed for good, naming the options that fix it.
        # @param error [Exception] one {Client.tls_refused?} accepts
        # @param trust [String] the option naming a CA file
        # @param client [String] the options naming a client certificate and key
        # @return [String]
        def tls_refused(error, trust: "ssl_ca_file:", client: "ssl_cert_file:/ssl_key_file:")
          "the TLS handshake with #{redacted} failed (#{Client.tls_reason(error)}); trust the server's CA with " \
            "#{trust} (and give #{client} if it asks for a client certificate)"
        end

        # A hint for a connection a TLS server closed when we gave no client
        # certificate: a server that requires one (redis-server's default,
        # `tls-auth-clients yes`) does that, which looks like a network failure.
        # @param error [Exception]
        # @param client [String] the options naming a client certificate and key
        # @return [String] "" unless it may be that
        def client_certificate_hint(error, client: "ssl_cert_file:/ssl_key_file:")
          return "" unless @url.start_with?("rediss:") && !@ssl_params.key?(:cert) &&
                           error.is_a?(RedisClient::ConnectionError)

          "; if the server asks for client certificates (tls-auth-clients), give #{client}"
        end

        # Hides credentials from inspect.
        # @return [String]
        def inspect = "#<#{self.class.name} #{redacted} namespace=#{@keys.namespace}>"

        private

        # The options over the environment, every file named checked readable.
        def settings(env, options)
          settings = ENV_NAMES.to_h { |key, name| [key, env[name]] }.compact.merge(options.compact)
          FILES.each { |key| readable!(key, settings[key]) if settings.key?(key) }
          settings
        end

        def readable!(key, path)
          return if path.is_a?(String) && File.file?(path) && File.readable?(path)

          raise ArgumentError, "#{key}: #{path.inspect} is not a readable file"
        end

        # The value of key, or the first line of the file key_file names.
        def given(settings, key)
          file = settings[:"#{key}_file"]
          settings[key] || (file && File.read(file).chomp)
        end

        def ssl_params(settings)
          { ca_file: settings[:ssl_ca_file], cert: settings[:ssl_cert_file],
            key: settings[:ssl_key_file] }.compact.tap do |params|
            params[:cert] = File.read(params[:cert]) if params[:cert]
            params[:key] = File.read(params[:key]) if params[:key]
          end
        end
      end
    end
  end
end
