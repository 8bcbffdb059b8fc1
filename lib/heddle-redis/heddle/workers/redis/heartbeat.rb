# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # A worker process's background thread: registers the process (with
      # its handlers and slots) so callers can tell whether anyone serves
      # their handler; touches the entries its lanes are running, so that a
      # live worker's long chunk is never taken from it (only a dead or
      # stopped worker's entries go idle past the visibility timeout); and
      # keeps the {Directory} current, waking the lanes when a pool appears
      # or goes (a caller publishes on `heddle:announce`).
      class Heartbeat
        # Seconds between beats at most; shorter when a pool's visibility
        # timeout is short (a third of it), so touches always come in time.
        BEAT = 0.5
        # Seconds a registration lives without a beat.
        REGISTRATION_TTL = 5.0
        # Seconds after its last beat that a process counts as dead and other
        # workers take its entries (three beats: one late beat on a loaded
        # machine costs a duplicate run at worst, never a lost or doubled result).
        ALIVE_TTL = 1.5
        # Seconds between tries while Redis refuses or is gone, at most.
        MAX_BACKOFF = 1.0

        # @param node [Node]
        # @param slots [Integer, nil] items the process runs at once; nil: do not register
        # @param directory [Boolean] whether to keep the directory (processes with lanes)
        def initialize(node, slots:, directory: true)
          @node = node
          @slots = slots
          @directory = directory
          @stopping = false
          @wake_lock = Mutex.new # held across Redis calls: a wait for it stays interruptible
          @thread = Workers.thread { run }
          @thread.name = "heddle worker heartbeat"
        end

        # Stops the thread and takes the registration back.
        # @return [void]
        def stop
          @stopping = true
          @thread.join(Client::TIMEOUT + BEAT)
        end

        # For a process about to end without draining (a lane process whose
        # main process died): hands its running entries back (idle past any
        # visibility timeout) and takes it off the alive set, at once and from
        # the calling thread (the beat thread may be waiting out a beat), so
        # that other workers take the entries at their next look. A beat under
        # way may touch them again: then they move once this process's beat
        # lapses, as a killed worker's do.
        # @return [void]
        def hand_back
          @stopping = true
          @wake_lock.synchronize do
            @wake_client ||= @node.connect
            touch(@wake_client, EntryRun::RELEASE_IDLE)
            @wake_client.call("ZREM", keys.alive, @node.id)
          end
        rescue RedisClient::Error
          nil # the entries move once the beat lapses
        end

        # Wakes the lanes blocked in a read (the directory changed, or draining).
        # @return [void]
        def wake_lanes
          ids = @node.lane_client_ids
          @wake_lock.synchronize do # the heartbeat and the signal watcher both wake lanes
            @wake_client ||= @node.connect
            ids.each { |id| @wake_client.call("CLIENT", "UNBLOCK", id) }
          end
        rescue RedisClient::Error
          nil
        end

        private

        def run
          @client = @node.connect
          # Listening before registering: a caller that sees this worker
          # registered and then announces a pool is heard, not missed until
          # the next beat.
          listen_first if @directory
          beat until @stopping
          unregister
        ensure
          @client&.close
          @pubsub&.close
        end

        # Nothing Redis answers ends the thread (a dead heartbeat would leave
        # the worker unregistered for good): errors are logged once per
        # outage and retried with backoff.
        def beat
          alive
          register if @slots
          touch(@client, 0)
          wake_lanes if @directory && @node.directory.refresh(@client)
          recovered
          listen
        rescue StandardError => e
          failed(e)
        end

        def keys = @node.keys

        # Says this process lives on, and tells the node whether the server
        # had counted it as dead meanwhile (not at the first beat).
        def alive
          asked = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          now, until_ms = Scripts::ALIVE.call(@client, [keys.alive], [@node.id, (ALIVE_TTL * 1000).to_i])
          @node.beat(asked, @beaten && until_ms < now)
          @beaten = true
        end

        def failed(error)
          @pubsub&.close
          @pubsub = nil
          @client.close if error.is_a?(RedisClient::CommandError) # reconnect, as after a restart
          unless @backoff
            @node.logger.warn("heartbeat: #{@node.config.redacted} failed (#{error.class}: #{error.message}); " \
                              "retrying")
          end
          @backoff = [(@backoff || 0.05) * 2, MAX_BACKOFF].min
          sleep @backoff
        end

        def recovered
          return unless @backoff

          @backoff = nil
          @node.logger.info("heartbeat: #{@node.config.redacted} answers again")
        end

        def register
          names = [keys.workers, keys.slots, keys.fingerprints, *@node.handlers.map { |h| keys.serves(h) }]
          Scripts::REGISTER.call(@client, names, [@node.id, (REGISTRATION_TTL * 1000).to_i, @slots,
                                                  Signer.fingerprint(@node.codec.signer)])
        end

        def unregister
          @client.pipelined do |pipe|
            pipe.call("ZREM", keys.workers, @node.id)
            pipe.call("ZREM", keys.alive, @node.id)
            pipe.call("HDEL", keys.slots, @node.id)
            pipe.call("HDEL", keys.fingerprints, @node.id)
            @node.handlers.each { |h| pipe.call("ZREM", keys.serves(h), @node.id) }
          end
        rescue RedisClient::Error
          nil # the registration expires by itself
        end

        # Sets the idle time of the entries the lanes run: 0 keeps them
        # this worker's, past the visibility timeout hands them to others.
        def touch(client, idle)
          @node.active.each do |(stream, consumer), ids|
            Scripts::TOUCH.call(client, [stream], [Keys::GROUP, consumer, idle, *ids])
          end
        end

        # Waits for the next beat, or less when a pool is announced.
        def listen
          unless @directory
            sleep interval
            return
          end
          @pubsub ||= subscribe
          @pubsub.next_event(interval)
        end

        def listen_first
          @pubsub = subscribe
        rescue RedisClient::Error
          @pubsub = nil # the beat subscribes once Redis answers
        end

        def subscribe
          pubsub = @node.connect.pubsub
          pubsub.call("SUBSCRIBE", keys.announce)
          pubsub
        end

        def interval
          visibility = @node.directory.min_visibility_ms
          visibility ? [BEAT, visibility / 3000.0].min : BEAT
        end
      end
    end
  end
end
