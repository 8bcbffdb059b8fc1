# frozen_string_literal: true

require "heddle/masked_lock"
require "heddle/masks"

module Heddle
  module Workers
    module Redis
      # A worker process's list of the live pools it can serve: those of the
      # handlers it knows, and no other (two pools of different handlers on
      # one Redis never see each other's items). The heartbeat refreshes it;
      # lanes read a frozen snapshot without locking.
      class Directory
        # One pool's items stream, as a worker reads it.
        Stream = Struct.new(:pool, :handler, :key, :visibility_ms, :ttl_ms)

        # @return [Array<Stream>] the pools now, frozen
        attr_reader :streams
        # @return [Integer] bumped at every change
        attr_reader :generation

        # @param handlers [Array<Symbol>] the handlers this process knows
        # @param keys [Keys] the namespace's key names
        def initialize(handlers, keys)
          @handlers = handlers
          @keys = keys
          @streams = [].freeze
          @by_key = {}.freeze
          @generation = 0
          @lock = Heddle::MaskedLock.new
          @changed = ConditionVariable.new
        end

        # @param key [String] @return [Stream, nil]
        def [](key) = @by_key[key]

        # Reads the live pools of every known handler, in one round trip.
        # @param client [RedisClient]
        # @return [Boolean] whether the list changed
        def refresh(client)
          reply = Scripts::POOLS.call(client, @handlers.map { |handler| @keys.pools(handler) },
                                      [@keys.pool_prefix, *@handlers])
          found = reply.each_slice(4).map do |argv_index, id, visibility, ttl|
            Stream.new(id, @handlers[argv_index - 2], @keys.items(id), visibility.to_i, ttl.to_i)
          end
          return false if found.map(&:key) == @streams.map(&:key)

          @lock.synchronize do
            @by_key = found.to_h { |s| [s.key, s] }.freeze
            @streams = found.freeze
            @generation += 1
            @changed.broadcast
          end
          true
        end

        # Waits until the list changes from generation, or timeout seconds.
        # @param generation [Integer]
        # @param timeout [Numeric]
        # @return [void]
        def wait_change(generation, timeout)
          @lock.synchronize do
            next unless @generation == generation

            Thread.handle_interrupt(Heddle::Masks::INTERRUPTIBLE) { @changed.wait(@lock, timeout) }
          end
        end

        # @return [Integer, nil] the shortest visibility timeout of the pools, in ms
        def min_visibility_ms = @streams.map(&:visibility_ms).min
      end
    end
  end
end
