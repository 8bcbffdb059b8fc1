# frozen_string_literal: true

require "heddle/masked_lock"
require "heddle/masks"
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
        # Entry ids remembered as read ({#first_read?}).
        SEEN = 100_000
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
          @lock = Heddle::MaskedLock.new
          @draining = false
          @release_at = nil
          @seen = {}
          @refused = Hash.new(0)
          @epoch = 0
          @beat_at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          @beaten = ConditionVariable.new
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

        # @return [Integer] how many times this process was found taken for
        #   dead (its beats stopped past {Heartbeat::ALIVE_TTL}) so far
        def epoch = @lock.synchronize { @epoch }

        # Heartbeat: the server heard this process at +at+ (monotonic
        # seconds); +lapsed+ when it had counted it as dead meanwhile.
        # @param at [Float] @param lapsed [Boolean]
        # @return [void]
        def beat(at, lapsed)
          @lock.synchronize do
            @beat_at = at
            @epoch += 1 if lapsed
            @beaten.broadcast
          end
          return unless lapsed

          @logger.warn("this worker was taken for dead (no beat for over #{Heartbeat::ALIVE_TTL} s: stopped, paused " \
                       "or starved); entries others took from it are dropped, not delivered")
        end

        # Waits (draining aside) until the last beat is recent enough that
        # no other worker can have taken this process for dead.
        # @return [Integer] the {#epoch} then
        def await_beat
          @lock.synchronize do
            until release_now? || Process.clock_gettime(Process::CLOCK_MONOTONIC) - @beat_at < Heartbeat::ALIVE_TTL
              Thread.handle_interrupt(Heddle::Masks::INTERRUPTIBLE) { @beaten.wait(@lock, 0.1) }
            end
            @epoch
          end
        end

        # Whether this process reads the entry id of stream as new for the
        # first time: a consumer group hands each entry out as new once, so
        # a second time is an entry added again under its old id. Remembers
        # the last {SEEN} ids.
        # @param stream [String] @param id [String]
        # @return [Boolean]
        def first_read?(stream, id)
          key = "#{stream} #{id}"
          @lock.synchronize do
            next false if @seen.key?(key)

            @seen.shift while @seen.size >= SEEN
            @seen[key] = true
          end
        end

        # Logs an entry refused as forged: the first of each pool with why,
        # then how many so far at 10, 100, 1000...
        # @param stream [Directory::Stream] @param id [String] @param why [String]
        # @return [void]
        def refused(stream, id, why)
          count = @lock.synchronize { @refused[stream.key] += 1 }
          if count == 1
            @logger.warn("#{stream.handler} pool #{stream.pool}: entry #{id} refused, nothing run: #{why}")
          elsif (count % 10).zero? && count.digits.sum == 1
            @logger.warn("#{stream.handler} pool #{stream.pool}: #{count} entries refused so far")
          end
        end

        # The consumer name of a lane: unique per process and lane.
        # @param lane [Integer] @return [String]
        def consumer(lane) = "#{@id}:#{lane}"
      end
    end
  end
end
