# frozen_string_literal: true

# Time from a redis-server restart (SIGTERM, then started again on the same
# port and directory) to the end of the map it interrupted: 2 `heddle worker`
# processes (1 thread lane each), 100 items of 0.03 s
# (test/support/redis_handlers.rb's test.slow), a redis-server of its own on
# 127.0.0.1 with an append-only file and a dataset of `keys` keys beside the
# pool's (DEBUG POPULATE, then BGREWRITEAOF), so that the restarted server
# answers LOADING while it reads them back. The restart begins a third of
# the way into the map; every result is checked.
#
# Printed per trial and as median [min-max]: the undisturbed map; restart ->
# end of map; restart -> the server listening again (down); listening -> PONG
# (the LOADING phase); PONG -> end of map (heddle's own recovery and the
# items left).
#
#   bundle exec ruby bench/scripts/redis/restart_recovery.rb [trials] [keys]
require "socket"
require "tmpdir"
require "rbconfig"
require "fileutils"
roots = %w[heddle heddle-redis].map { |gem| File.expand_path("../../../lib/#{gem}", __dir__) }
$LOAD_PATH.unshift(*roots)
require "heddle"
require "heddle/workers/redis"
root = File.expand_path("../../..", __dir__)
handlers = File.join(root, "test/support/redis_handlers.rb")
require handlers
Heddle::Workers::Redis::Client.load_gem

trials = Integer(ARGV.fetch(0, 5))
keys = Integer(ARGV.fetch(1, 2_000_000))
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
wait = lambda do |what, seconds = 120, &ready|
  deadline = now.call + seconds
  sleep 0.005 until ready.call || (now.call > deadline && abort("gave up waiting for #{what}"))
end
port = TCPServer.new("127.0.0.1", 0).then { |s| s.addr[1].tap { s.close } }
dir = Dir.mktmpdir("heddle-restart")
url = "redis://127.0.0.1:#{port}/0"
# One raw PING: "PONG", "LOADING", or nil (not listening).
ping = lambda do
  TCPSocket.open("127.0.0.1", port) do |socket|
    socket.write("PING\r\n")
    reply = socket.wait_readable(1) && socket.readpartial(64)
    reply.to_s[/PONG|LOADING/]
  end
rescue SystemCallError, IOError
  nil
end
server = nil
workers = []
# An abort (a wrong result, a wait given up) leaves nothing running.
at_exit do
  [server, *workers].compact.each { |pid| Process.kill("KILL", pid) rescue nil } # rubocop:disable Style/RescueModifier
  FileUtils.rm_rf(dir)
end
start_server = lambda do
  server = Process.spawn("redis-server", "--port", port.to_s, "--bind", "127.0.0.1", "--dir", dir, "--save", "",
                         "--appendonly", "yes", "--enable-debug-command", "yes",
                         "--logfile", File.join(dir, "redis.log"), %i[out err] => File::NULL)
end
stop_server = lambda do
  Process.kill("TERM", server)
  Process.wait(server)
  server = nil
end
start_server.call
wait.call("redis") { ping.call == "PONG" }
admin = RedisClient.config(url: url, read_timeout: 120).new_client
admin.call("DEBUG", "POPULATE", keys) if keys.positive?
admin.call("BGREWRITEAOF")
wait.call("the AOF rewrite") { admin.call("INFO", "persistence")[/aof_rewrite_in_progress:(\d)/, 1] == "0" }
admin.close
start_worker = lambda do
  log = File.join(dir, "w#{rand(1 << 30)}.log")
  pid = Process.spawn(RbConfig.ruby, *roots.flat_map { |r| ["-I", r] }, "#{root}/exe/heddle", "worker", "--redis", url,
                      "--require", handlers, %i[out err] => log)
  workers << pid
  wait.call("worker #{pid}") { File.exist?(log) && File.read(log).include?("serving") }
  pid
end
items = (0...100).map { |n| [n, 0.03] }
rows = Array.new(trials) do |trial|
  pids = Array.new(2) { start_worker.call }
  pool = Heddle::Pool.new(worker: :redis, handler: :"test.slow", url: url, reconnect_timeout: 120)
  pool.map(items.first(4))
  started = now.call
  pool.map(items)
  undisturbed = now.call - started
  restarter = Thread.new do
    sleep undisturbed / 3
    at = now.call
    stop_server.call
    start_server.call
    wait.call("the restarted server to listen", 120) { ping.call }
    up = now.call
    wait.call("the restarted server to load", 120) { ping.call == "PONG" }
    [at, up, now.call]
  end
  results = pool.map(items)
  ended = now.call
  restarted, up, loaded = restarter.value
  abort "wrong results in trial #{trial + 1}" unless results == items.map { |n, _| [n, results[n].last] } &&
                                                     (results.map(&:last) - pids).empty?
  pool.shutdown
  pids.each { |pid| Process.kill("TERM", pid) }
  pids.each { |pid| Process.wait(pid) }
  workers -= pids
  row = [undisturbed, ended - restarted, up - restarted, loaded - up, ended - loaded]
  warn format("trial %d: map %.2f s, restart->end %.2f s, down %.2f s, loading %.2f s, pong->end %.2f s",
              trial + 1, *row)
  row
end
stop_server.call
median = ->(xs) { xs.sort[xs.size / 2] }
puts "#{RUBY_DESCRIPTION}; #{trials} trials; 2 workers, 100 items of 0.03 s, AOF, #{keys} keys of dataset; " \
     "load average #{File.read('/proc/loadavg').split.first(3).join(' ')}"
%w[undisturbed_map_s restart_to_end_s down_s loading_s pong_to_end_s].each_with_index do |name, i|
  xs = rows.map { |r| r[i] }
  puts format("%-20s median %.2f  min %.2f  max %.2f", name, median.call(xs), xs.min, xs.max)
end
