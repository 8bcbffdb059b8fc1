# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # Opens connections to the Redis server through the redis-client gem
      # (the client Sidekiq 7 uses), an optional dependency of heddle: it is
      # required here, on first use of the Redis backend, with an error that
      # says how to install it when it is missing.
      module Client
        # Seconds to wait for a connection or a non-blocking reply: a server on
        # the network answers in milliseconds; longer means it is gone.
        TIMEOUT = 5.0
        # Error codes that mean "not now": retried with backoff.
        TRANSIENT = %w[LOADING BUSY TRYAGAIN MASTERDOWN READONLY OOM MISCONF CLUSTERDOWN NOREPLICAS
                       NOMASTERLINK].freeze
        # Error codes that mean the credentials are wrong: fail at once.
        AUTH = %w[NOAUTH WRONGPASS NOPERM].freeze
        # What OpenSSL says when a TLS handshake fails for good: the server's
        # certificate is not trusted (or names another host), the server
        # wants a client certificate (when its alert is read before the
        # reset), or one side does not speak TLS. A reset or an EOF
        # mid-handshake is not here: a restarting server does that too.
        TLS_REFUSALS = Regexp.union("certificate verify failed", "wrong version number", "unknown ca",
                                    "bad certificate", "certificate unknown", "certificate required",
                                    "unsupported protocol", "no protocols available", "packet length too long")

        class << self
          # @return [true]
          # @raise [LoadError] naming the gem to add when redis-client is missing
          def load_gem
            require "redis-client"
            true
          rescue LoadError => e
            raise LoadError, "worker: :redis and `heddle worker` need the redis-client gem: run `gem install " \
                             "redis-client`, or add `gem \"redis-client\"` to your Gemfile and run `bundle install` " \
                             "(#{e.message})"
          end

          # @param url [Object]
          # @return [String] url
          # @raise [ArgumentError] unless a redis:// or rediss:// URL
          def validate_url!(url)
            return url if url.is_a?(String) && url.match?(%r{\Arediss?://[^/]}) && !url.match?(/\s/)

            raise ArgumentError, "url: must be a redis://host:port/db URL, got #{url.inspect}"
          end

          # The URL without a password, for messages and logs.
          # @param url [String]
          # @return [String]
          def redact(url) = url.sub(%r{//[^@/]*@}, "//***@")

          # Whether an error passes if asked again later: the connection is
          # gone (a restart, a network failure), or the server refuses for now
          # (LOADING its dataset, BUSY in a script, READONLY replica during a
          # failover, OOM, MISCONF after a failed save...).
          # @param error [Exception]
          # @return [Boolean]
          def transient?(error)
            return false unless defined?(RedisClient::Error) && error.is_a?(RedisClient::Error)

            error.is_a?(RedisClient::ConnectionError) || TRANSIENT.include?(code(error))
          end

          # Whether the server refused our credentials: asking again will not help.
          # @param error [Exception]
          # @return [Boolean]
          def auth?(error)
            defined?(RedisClient::CommandError) && error.is_a?(RedisClient::CommandError) &&
              AUTH.include?(code(error))
          end

          # Whether the server refused the URL's db (SELECT out of range).
          # @param error [Exception]
          # @return [Boolean]
          def db_refused?(error)
            defined?(RedisClient::CommandError) && error.is_a?(RedisClient::CommandError) &&
              error.message.include?("DB index is out of range")
          end

          # Whether the TLS handshake failed in a way asking again will not
          # cure (redis-client wraps OpenSSL's error, which stays the cause).
          # @param error [Exception]
          # @return [Boolean]
          def tls_refused?(error)
            cause = error.cause
            defined?(RedisClient::ConnectionError) && error.is_a?(RedisClient::ConnectionError) &&
              defined?(OpenSSL::SSL::SSLError) && cause.is_a?(OpenSSL::SSL::SSLError) &&
              TLS_REFUSALS.match?(cause.message)
          end

          # @param error [Exception] a {tls_refused?} error
          # @return [String] OpenSSL's reason, without its state prefix
          def tls_reason(error) = error.cause.message.sub(/\A.*state=error: /, "")

          # What went wrong for `seconds`, for error messages.
          # @param url [String] @param error [Exception] @param seconds [Numeric]
          # @return [String]
          def outage(url, error, seconds)
            if error.is_a?(RedisClient::ConnectionError)
              "lost the connection to #{redact(url)} (#{error.class}: #{error.message}) and could not reconnect " \
                "within #{seconds} s"
            else
              "#{redact(url)} kept refusing (#{error.class}: #{error.message}) for #{seconds} s"
            end
          end

          # @param error [Exception] @return [String, nil] the error's code, e.g. "LOADING"
          def code(error) = error.message[/\A[A-Z]+/]
        end
      end
    end
  end
end
