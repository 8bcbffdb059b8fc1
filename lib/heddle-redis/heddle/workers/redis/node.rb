# frozen_string_literal: true

require "logger"

module Heddle
  module Workers
    module Redis
      # What the lanes and the heartbeat of one worker process share: its
      # identity, the handlers it knows, the pools it can serve, the entries
      # its lanes are running (so the heartbeat keeps them), and whether it
      # is draining (SIGTERM: take no more entries) or releasing (hand the
      # running entries back now).
      class Node
        # @return [String] "host:pid": this process in the registry and in errors
        attr_reader :id
        # @return [Config] the server, namespace and wire format
        attr_reader :config
        # @return [Directory]
        attr_reader :directory
        # @return [Logger]
        attr_reader :logger
        # @return [Array<Symbol>]
        attr_reader :handlers

        # @param config [Config]
        # @param handlers [Array<Symbol>]
        # @param logger [Logger]
        def initialize(config:, handlers:, logger:)
          @config = config
          @handlers = handlers
          @logger = logger
          @id = "#{Codec.host}:#{Process.pid}"
          @directory = Directory.new(handlers, config.keys)
          @active = {}
          @lanes = []
          @lock = Mutex.new
          @draining = false
          @release_at = nil
        end

        # @return [Keys] this worker's key names (its namespace)
        def keys = @config.keys

        # @return [Codec] the wire format it accepts, and its signer
        def codec = @config.codec

        # @return [RedisClient] a new connection
        def connect = @config.connect

        # @return [Boolean] take no more entries
        def draining? = @draining

        # @return [Boolean] stop running the current entry and hand it back
        def release_now? = !@release_at.nil? && Process.clock_gettime(Process::CLOCK_MONOTONIC) >= @release_at

        # Takes no more entries; entries running after `seconds` are released.
        # @param seconds [Numeric]
        # @return [void]
        def drain!(seconds)
          @draining = true
          deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
          @release_at = [@release_at || deadline, deadline].min
        end

        # @param lane [Lane] @return [void]
        def add_lane(lane) = @lock.synchronize { @lanes << lane }

        # A lane that ended (its replacement adds itself).
        # @param lane [Lane] @return [void]
        def remove_lane(lane) = @lock.synchronize { @lanes.delete(lane) }

        # @return [Array<Integer>] the server-side ids of the lanes' connections (to wake them)
        def lane_client_ids = @lock.synchronize { @lanes.filter_map(&:client_id) }

        # @param stream [String] @param id [String] @param consumer [String] @return [void]
        def running(stream, id, consumer) = @lock.synchronize { (@active[[stream, consumer]] ||= {})[id] = true }

        # @param stream [String] @param id [String] @param consumer [String] @return [void]
        def done(stream, id, consumer) = @lock.synchronize { @active[[stream, consumer]]&.delete(id) }

        # @return [Hash{(String, String) => Array<String>}] [stream, consumer] => the ids of entries being run
        def active = @lock.synchronize { @active.transform_values(&:keys).reject { |_, ids| ids.empty? } }

        # The consumer name of a lane: unique per process and lane.
        # @param lane [Integer] @return [String]
        def consumer(lane) = "#{@id}:#{lane}"
      end
    end
  end
end
