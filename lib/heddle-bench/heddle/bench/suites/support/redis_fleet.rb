# frozen_string_literal: true

require "rbconfig"
require "socket"
require "tmpdir"
require "fileutils"
require "heddle"

module Heddle
  module Bench
    # The `distributed` suite's machinery (lib/heddle-bench/heddle/bench/suites/distributed.rb):
    # a redis-server of its own on 127.0.0.1, `heddle worker` processes on this
    # machine standing in for machines, and the handlers they run. Workers
    # require this file (and the map suite, for its heavy item), so both
    # sides know the handlers. The Sidekiq peer is in sidekiq_peer.rb.
    module RedisFleet
      # The folder the bench's processes run in: heddle-bench's root.
      ROOT = File.expand_path("../../../../..", __dir__)
      # Seconds a process may take to start or stop on a loaded machine.
      WAIT = 60

      Heddle.handler(:"bench.trivial") { |item| item * 2 }
      Heddle.handler(:"bench.heavy") { |item| Heddle::Bench::MapSuite.heavy(item) }

      class << self
        # @return [String] the URL of this process's redis-server, started on first use
        def url
          @url ||= start_server
        end

        # @return [RedisClient] this process's connection to the server
        def client = @client ||= RedisClient.config(url: url).new_client

        # Starts `heddle worker` processes and waits until they serve.
        # @param count [Integer]
        # @return [Array<Integer>] their pids
        def start_workers(count)
          pids = Array.new(count) do
            spawn(*ruby, *GemPaths.load_path_flags, GemPaths.heddle_executable, "worker", "--redis",
                  url, *handler_files.flat_map { |f| ["--require", f] })
          end
          wait_for("#{count} heddle workers") { live_workers >= count }
          pids
        end

        # Stops processes (TERM, then KILL), reaps them, and forgets their
        # registrations, so that the next row counts only its own.
        # @param pids [Array<Integer>] @return [void]
        def stop(pids)
          pids.each { |pid| signal("TERM", pid) } # all stop at once, then each is reaped
          pids.each { |pid| reap(pid) } # rubocop:disable Style/CombinableLoops
          client.call("DEL", "heddle:workers", "processes")
        end

        # @param signal [String] @param pid [Integer] @return [void]
        def signal(signal, pid)
          Process.kill(signal, pid)
        rescue Errno::ESRCH
          nil
        end

        # @param what [String] @param seconds [Numeric]
        # @return [Object] the block's value once truthy
        # @raise [RuntimeError] after seconds
        def wait_for(what, seconds = WAIT)
          deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
          until (value = yield)
            late = Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
            raise "gave up waiting #{seconds} s for #{what}" if late

            sleep 0.02
          end
          value
        end

        # The worker processes' Ruby: this one, with YJIT when this process has
        # it (a `--yjit` flag is not inherited; a local pool's forks inherit it).
        # @return [Array<String>]
        def ruby
          yjit = defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?
          [RbConfig.ruby, *("--yjit" if yjit)]
        end

        # @param command [Array] as for Process.spawn (an env Hash first, if any)
        # @return [Integer] the pid; output discarded
        def spawn(*command)
          Process.spawn(*command, %i[out err] => File::NULL, chdir: ROOT)
        end

        private

        def handler_files
          [File.expand_path("../../../bench.rb", __dir__), File.expand_path("../map.rb", __dir__), __FILE__]
        end

        def reap(pid)
          wait_for("process #{pid} to stop", 10) { Process.waitpid(pid, Process::WNOHANG) }
        rescue Errno::ECHILD
          nil
        rescue RuntimeError
          signal("KILL", pid)
          Process.wait(pid)
        end

        def live_workers = client.call("ZCOUNT", "heddle:workers", "(#{client.call('TIME')[0].to_i * 1000}", "+inf")

        # heddle-redis (and its redis-client) on first use: without them the
        # suite's heddle rows are skipped, and its other rows still run.
        def start_server
          require "heddle/workers/redis"
          Workers::Redis::Client.load_gem
          dir = Dir.mktmpdir("heddle-bench-redis")
          port = TCPServer.open("127.0.0.1", 0) { |s| s.addr[1] }
          pid = spawn("redis-server", "--port", port.to_s, "--bind", "127.0.0.1", "--dir", dir, "--save", "",
                      "--appendonly", "no")
          owner = Process.pid
          at_exit { stop_server(pid, dir) if Process.pid == owner }
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
