# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # One consumer of a worker process: reads an entry at a time from the
      # pools it knows (XREADGROUP over all their streams), runs it
      # ({EntryRun}), and now and then takes over entries that other
      # consumers left idle past their pool's visibility timeout
      # (XAUTOCLAIM): a worker that was killed, or stopped, loses its entries
      # to the others. A worker runs `--concurrency` lanes (threads, fibers
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
          @client = Client.connect(@node.url)
          until @node.draining?
            begin
              cycle
            rescue RedisClient::ConnectionError => e
              lost(e)
            rescue RedisClient::CommandError => e
              raise unless e.message.start_with?("NOGROUP", "UNBLOCKED")

              @node.directory.refresh(@client) # a pool went away while we read it
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
            _cursor, entries, = @client.call("XAUTOCLAIM", stream.key, Keys::GROUP, @consumer, stream.visibility_ms,
                                             "0-0", "COUNT", 1)
            next if entries.empty?

            id, fields = entries.first
            run_entry(stream, id, fields, deliveries(stream, id)) if fields
            return true
          end
          @reclaim_at = now + (@node.directory.min_visibility_ms / (1000.0 * LOOKS))
          false
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

        def lost(error)
          @client_id = nil
          unless @backoff
            @node.logger.warn("lost the connection to #{Client.redact(@node.url)} (#{error.class}: " \
                              "#{error.message}); retrying")
          end
          @backoff = [(@backoff || 0.05) * 2, MAX_BACKOFF].min
          sleep @backoff
        end
      end
    end
  end
end
