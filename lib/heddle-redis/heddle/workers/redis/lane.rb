# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # One consumer of a worker process: reads an entry at a time from the
      # pools it knows (XREADGROUP over all their streams), runs it
      # ({EntryRun}), and now and then takes over entries that other
      # consumers left idle past their pool's visibility timeout
      # (XAUTOCLAIM), and at once those of consumers whose process's
      # heartbeat lapsed (killed, stopped): a dead worker's entries move in
      # about {Heartbeat::ALIVE_TTL} seconds, a live but stuck one's after
      # the visibility timeout. A worker runs `--concurrency` lanes (threads, fibers
      # or processes), each with its own connection.
      class Lane
        # Seconds a read blocks; the heartbeat wakes it sooner when the pools change.
        BLOCK = 1.0
        # Looks for idle entries to take over this many times per visibility
        # timeout, and an idle lane's read blocks no longer than the next look:
        # an entry is taken over at most a twentieth past the timeout (fewer
        # looks and longer reads left a dead worker's last entry waiting long).
        LOOKS = 20
        # Seconds between tries after a broken connection, at most.
        MAX_BACKOFF = 1.0
        # Seconds between looks for a dead process's entries, at most.
        DEAD_LOOK = 0.25

        # @return [Integer, nil] this lane's connection id on the server
        attr_reader :client_id

        # @param node [Node]
        # @param index [Integer] the lane's number in its process
        def initialize(node, index)
          @node = node
          @consumer = node.consumer(index)
          @reclaim_at = 0.0
          node.add_lane(self)
        end

        # Serves until the process drains.
        # @return [void]
        def run
          @client = @node.connect
          until @node.draining?
            begin
              cycle
            rescue RedisClient::CommandError => e
              next lost(e) unless e.message.start_with?("NOGROUP", "UNBLOCKED")

              refresh # a pool went away while we read it
            rescue RedisClient::Error => e
              lost(e)
            end
          end
        ensure
          @node.remove_lane(self)
          @client&.close
        end

        private

        def cycle
          @client_id ||= @client.call("CLIENT", "ID")
          streams = @node.directory.streams
          return @node.directory.wait_change(@node.directory.generation, BLOCK) if streams.empty?
          return if reclaim(streams)

          read(streams)
          @backoff = nil
        end

        def read(streams)
          block = (@reclaim_at - Process.clock_gettime(Process::CLOCK_MONOTONIC)).clamp(0.01, BLOCK)
          reply = @client.blocking_call(block + Client::TIMEOUT, "XREADGROUP", "GROUP", Keys::GROUP, @consumer,
                                        "COUNT", 1, "BLOCK", (block * 1000).ceil, "STREAMS",
                                        *streams.map(&:key), *Array.new(streams.size, ">"))
          reply&.each do |key, entries|
            stream = @node.directory[key] or next
            entries.each { |id, fields| run_entry(stream, id, fields, 1) }
          end
        end

        # Takes one entry idle past its pool's visibility timeout, if any.
        # @return [Boolean] whether one was taken (look again at once)
        def reclaim(streams)
          now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          return false if now < @reclaim_at

          streams.each do |stream|
            return true if reclaim_dead(stream)

            _cursor, entries, = @client.call("XAUTOCLAIM", stream.key, Keys::GROUP, @consumer, stream.visibility_ms,
                                             "0-0", "COUNT", 1)
            next if entries.empty?

            id, fields = entries.first
            run_entry(stream, id, fields, deliveries(stream, id)) if fields
            return true
          end
          @reclaim_at = now + [@node.directory.min_visibility_ms / (1000.0 * LOOKS), DEAD_LOOK].min
          false
        end

        def refresh
          @node.directory.refresh(@client)
        rescue RedisClient::Error => e
          lost(e)
        end

        # Takes one entry of a process that is no longer alive, if any.
        # @return [Boolean] whether one was taken
        def reclaim_dead(stream)
          id, fields, deliveries = Scripts::RECLAIM_DEAD.call(@client, [stream.key, @node.keys.alive],
                                                              [Keys::GROUP, @consumer,
                                                               (Heartbeat::ALIVE_TTL * 1000).to_i])
          return false unless id

          run_entry(stream, id, fields, deliveries)
          true
        end

        def deliveries(stream, id)
          pending = @client.call("XPENDING", stream.key, Keys::GROUP, id, id, 1)
          pending.empty? ? 1 : pending.first[3]
        end

        def run_entry(stream, id, fields, deliveries)
          @node.running(stream.key, id, @consumer)
          EntryRun.new(@node, @client, stream, id, fields.each_slice(2).to_h, deliveries, @consumer).call
        ensure
          @node.done(stream.key, id, @consumer)
        end

        # Redis is gone or refuses (LOADING, BUSY, READONLY, OOM...): log
        # once, retry with backoff; the lane never ends for it.
        def lost(error)
          @client_id = nil
          @client.close if error.is_a?(RedisClient::CommandError)
          unless @backoff
            @node.logger.warn("#{@node.config.redacted} failed (#{error.class}: #{error.message}); retrying")
          end
          @backoff = [(@backoff || 0.05) * 2, MAX_BACKOFF].min
          sleep @backoff
        end
      end
    end
  end
end
