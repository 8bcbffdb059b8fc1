# frozen_string_literal: true

module RedisFixture
  # Tests that kill or stop a `heddle worker` while it holds an entry of a
  # pool's items stream (so that there is one to take over, or late results
  # to drop). Needs @server (a {RedisFixture::Server}).
  module EntryHolding
    def items_key(pool) = pool.instance_variable_get(:@backend).keys[:items]

    # Waits until the worker's lane holds an entry (so killing it now leaves one to take over).
    def wait_until_running(worker, pool)
      with_client { |client| wait_running(client, worker, pool) }
    end

    # Stops the worker with SIGSTOP while it holds an entry: one stopped
    # between entries would have no late results to drop.
    def stop_while_running(worker, pool)
      with_client do |client|
        RedisFixture.wait_for("worker #{worker.pid} to be stopped holding an entry") do
          wait_running(client, worker, pool)
          worker.signal("STOP")
          RedisFixture.wait_for("worker #{worker.pid} to stop", interval: 0.002) { ProcStat.state(worker.pid) == "T" }
          next true if running?(client, worker, pool)

          worker.signal("CONT") # it finished its entry before it stopped: again
          false
        end
      end
    end

    def wait_running(client, worker, pool)
      RedisFixture.wait_for("worker #{worker.pid} to be running an entry", interval: 0.002) do
        running?(client, worker, pool)
      end
    end

    def running?(client, worker, pool)
      consumer = "#{Socket.gethostname}:#{worker.pid}:0"
      client.call("XPENDING", items_key(pool), "heddle", "-", "+", 1, consumer).any?
    end

    def with_client
      client = @server.client
      yield client
    ensure
      client&.close
    end
  end
end
