# frozen_string_literal: true

require "heddle/workers/error"

module Heddle
  module Workers
    module Redis
      # The connection to Redis broke and did not come back within the pool's
      # `reconnect_timeout:` (or Redis came back without the pool's data): the
      # items without a result are failed with this error, never left waiting.
      class ConnectionLostError < Workers::Error; end

      # The server refused the credentials (NOAUTH, WRONGPASS, NOPERM): the
      # pool fails at once, since asking again cannot succeed.
      class AuthenticationError < Workers::Error; end

      # The TLS handshake with a `rediss://` server failed for good: its
      # certificate is not signed by a CA we trust (`ssl_ca_file:`) or names
      # another host. The pool fails at once, since asking again cannot
      # succeed.
      class TLSError < Workers::Error; end

      # An entry or result batch failed its signature (a secret is set and
      # it was written by someone without it), or did not decode: that one
      # item's error.
      class RejectedEntryError < Workers::Error; end

      # Workers are alive on the pool's Redis but none knows the pool's
      # handler: they were started without the file that defines it.
      class NoWorkerError < Workers::Error; end

      # Stands in for an exception raised on a worker: its class name,
      # message and backtrace, as the worker saw them, as strings. Bytes read
      # from Redis never choose the class the caller raises (heddle's own
      # worker errors aside), so rescue it, or test {#remote_class}.
      class RemoteError < StandardError
        # @return [String] the name of the original exception's class
        attr_reader :remote_class

        # @param remote_class [String]
        # @param message [String]
        # @param backtrace [Array<String>, nil]
        def initialize(remote_class, message, backtrace)
          super("#{remote_class}: #{message}")
          @remote_class = remote_class
          set_backtrace(backtrace) if backtrace
        end
      end

      # Mixed into every exception that comes back from a worker: where it
      # was raised.
      module WorkerOrigin
        # @return [String] the worker's host name
        attr_accessor :worker_host
        # @return [Integer] the worker process's id
        attr_accessor :worker_pid

        # @return [String] "host:pid"
        def worker = "#{worker_host}:#{worker_pid}"
      end
    end
  end
end
