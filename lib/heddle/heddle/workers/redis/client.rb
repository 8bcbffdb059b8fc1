# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # Opens connections to the Redis server through the redis-client gem
      # (the client Sidekiq 7 uses), an optional dependency of heddle: it is
      # required here, on first use of the Redis backend, with an error that
      # says what to add to the Gemfile when it is missing.
      module Client
        # Seconds to wait for a connection or a non-blocking reply: a server on
        # the network answers in milliseconds; longer means it is gone.
        TIMEOUT = 5.0

        class << self
          # @return [true]
          # @raise [LoadError] naming the gem to add when redis-client is missing
          def load_gem
            require "redis-client"
            true
          rescue LoadError => e
            raise LoadError, "worker: :redis and `heddle worker` need the redis-client gem: add " \
                             "`gem \"redis-client\"` to your Gemfile and run `bundle install` (#{e.message})"
          end

          # @param url [String] redis://host:port/db
          # @param timeout [Numeric] seconds to connect, and for each reply
          # @return [RedisClient] a new connection (it connects on first use)
          # @raise [ArgumentError] for a URL that is not redis:// or rediss://
          def connect(url, timeout: TIMEOUT)
            load_gem
            RedisClient.config(url: url, connect_timeout: timeout, read_timeout: timeout, write_timeout: timeout,
                               protocol: 3).new_client
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

          # Whether an error means the connection is gone (a restart, a network
          # failure), as opposed to a command Redis refused.
          # @param error [Exception]
          # @return [Boolean]
          def connection_error?(error)
            defined?(RedisClient::ConnectionError) && error.is_a?(RedisClient::ConnectionError)
          end
        end
      end
    end
  end
end
