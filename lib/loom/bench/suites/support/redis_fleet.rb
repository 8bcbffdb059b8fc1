# frozen_string_literal: true

require "rbconfig"
require "socket"
require "tmpdir"
require "fileutils"
require_relative "../../../../loom"

module Loom
  module Bench
    # The `distributed` suite's machinery (lib/loom/bench/suites/distributed.rb):
    # a redis-server of its own on 127.0.0.1, `loom worker` and Sidekiq
    # processes on this machine standing in for machines, and the handlers
    # and the Sidekiq job they run. Workers require this file (and the map
    # suite, for its heavy item), so both sides know the handlers.
    module RedisFleet
      ROOT = File.expand_path("../../../../..", __dir__)
      # Seconds a process may take to start or stop on a loaded machine.
      WAIT = 60
      # The Sidekiq queue of the peer's jobs.
      QUEUE = "loom_bench"

      Loom.handler(:"bench.trivial") { |item| item * 2 }
      Loom.handler(:"bench.heavy") { |item| Loom::Bench::MapSuite.heavy(item) }

      # The peer's job: what a Sidekiq user writes to get a result back,
      # pushed to a list the caller waits on.
      if defined?(::Sidekiq::Job)
        class TrivialJob
          include ::Sidekiq::Job

          # @param key [String] the caller's results list
          # @param index [Integer] @param item [Integer]
          def perform(key, index, item)
            ::Sidekiq.redis { |redis| redis.call("RPUSH", key, "#{index}:#{item * 2}") }
          end
        end
      end

      class << self
        # @return [String] the URL of this process's redis-server, started on first use
        def url
          @url ||= start_server
        end

        # Starts `loom worker` processes and waits until they serve.
        # @param count [Integer]
        # @return [Array<Integer>] their pids
        def start_workers(count)
          pids = Array.new(count) do
            spawn(RbConfig.ruby, "-I", File.join(ROOT, "lib"), File.join(ROOT, "exe", "loom"), "worker", "--redis",
                  url, *handler_files.flat_map { |f| ["--require", f] })
          end
          wait_for("#{count} loom workers") { registered("loom:workers") >= count }
          pids
        end

        # Starts Sidekiq processes (default concurrency, 5 threads each) on the peer's queue.
        # @param count [Integer] @return [Array<Integer>] their pids
        def start_sidekiqs(count)
          pids = Array.new(count) do
            spawn({ "REDIS_URL" => url }, RbConfig.ruby, Gem.bin_path("sidekiq", "sidekiq"), "-r", __FILE__,
                  "-q", QUEUE)
          end
          wait_for("#{count} Sidekiq processes") { live_sidekiqs >= count }
          pids
        end

        # Stops processes (TERM, then KILL) and reaps them.
        # @param pids [Array<Integer>] @return [void]
        def stop(pids)
          pids.each { |pid| signal("TERM", pid) }
          pids.each do |pid|
            next if wait_for("process #{pid} to stop", 10) { Process.waitpid(pid, Process::WNOHANG) }
          rescue Errno::ECHILD
            next
          rescue RuntimeError
            signal("KILL", pid)
            Process.wait(pid)
          end
          clear
        end

        # @param signal [String] @param pid [Integer] @return [void]
        def signal(signal, pid)
          Process.kill(signal, pid)
        rescue Errno::ESRCH
          nil
        end

        # The peer's run: push every item as a job, then wait for every result.
        # @param items [Array<Integer>] @return [Array<Integer>] results in input order
        def sidekiq_map(items)
          key = "loom:bench:results:#{Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)}"
          ::Sidekiq::Client.push_bulk("class" => "Loom::Bench::RedisFleet::TrivialJob", "queue" => QUEUE,
                                      "args" => items.each_with_index.map { |item, i| [key, i, item] })
          collect(key, items.size)
        end

        # Points the Sidekiq client of this process at the server.
        # @return [void]
        def configure_sidekiq
          require "sidekiq"
          ::Sidekiq.configure_client { |config| config.redis = { url: url } }
        end

        private

        def handler_files
          [File.join(ROOT, "lib/loom/bench.rb"), File.join(ROOT, "lib/loom/bench/suites/map.rb"), __FILE__]
        end

        def spawn(*command)
          Process.spawn(*command, %i[out err] => File::NULL, chdir: ROOT)
        end

        def collect(key, count)
          results = Array.new(count)
          got = 0
          while got < count
            _key, values = client.blocking_call(WAIT + 5, "BLMPOP", WAIT, 1, key, "LEFT", "COUNT", 1000)
            raise "Sidekiq gave #{got} of #{count} results within #{WAIT} s" unless values

            values.each do |value|
              index, result = value.split(":").map!(&:to_i)
              results[index] = result
            end
            got += values.size
          end
          results
        end

        def client = @client ||= RedisClient.config(url: url).new_client

        def registered(key) = client.call("ZCOUNT", key, "(#{client.call('TIME')[0].to_i * 1000}", "+inf")

        def live_sidekiqs = client.call("SCARD", "processes")

        # Forgets stopped workers and Sidekiq processes, so the next row counts only its own.
        def clear = client.call("DEL", "loom:workers", "processes")

        def wait_for(what, seconds = WAIT)
          deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
          until (value = yield)
            raise "gave up waiting #{seconds} s for #{what}" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

            sleep 0.02
          end
          value
        end

        def start_server
          Workers::Redis::Client.load_gem
          dir = Dir.mktmpdir("loom-bench-redis")
          port = TCPServer.open("127.0.0.1", 0) { |s| s.addr[1] }
          pid = spawn("redis-server", "--port", port.to_s, "--bind", "127.0.0.1", "--dir", dir, "--save", "",
                      "--appendonly", "no")
          at_exit { stop_server(pid, dir) if Process.pid == @owner }
          @owner = Process.pid
          @url = "redis://127.0.0.1:#{port}/0"
          wait_for("redis-server") { ping }
          @url
        end

        def stop_server(pid, dir)
          signal("TERM", pid)
          Process.wait(pid)
          FileUtils.rm_rf(dir)
        rescue Errno::ECHILD
          nil
        end

        def ping
          client.call("PING") == "PONG"
        rescue RedisClient::CannotConnectError
          @client = nil
          false
        end
      end
    end
  end
end
