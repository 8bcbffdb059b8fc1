# frozen_string_literal: true

# Time from a `heddle worker`'s kill -9 to the end of the map it was serving,
# against the same map undisturbed: 2 workers (1 thread lane each), 100 items
# of 0.03 s (test/support/redis_handlers.rb's test.slow), the default
# visibility timeout (30 s), a redis-server of its own on 127.0.0.1. The
# worker is killed while it holds an entry, a third of the way into the map.
#
#   bundle exec ruby bench/scripts/redis/kill_recovery.rb [trials]
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
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
wait = lambda do |what, seconds = 30, &ready|
  deadline = now.call + seconds
  sleep 0.005 until ready.call || (now.call > deadline && abort("gave up waiting for #{what}"))
end
port = TCPServer.new("127.0.0.1", 0).then { |s| s.addr[1].tap { s.close } }
dir = Dir.mktmpdir("heddle-kill")
url = "redis://127.0.0.1:#{port}/0"
server = Process.spawn("redis-server", "--port", port.to_s, "--bind", "127.0.0.1", "--save", "", "--dir", dir,
                       %i[out err] => File::NULL)
admin = RedisClient.config(url: url).new_client
wait.call("redis") { admin.call("PING") rescue nil } # rubocop:disable Style/RescueModifier -- not up yet
start_worker = lambda do
  log = File.join(dir, "w#{rand(1 << 30)}.log")
  pid = Process.spawn(RbConfig.ruby, *roots.flat_map { |r| ["-I", r] }, "#{root}/exe/heddle", "worker", "--redis", url,
                      "--require", handlers, %i[out err] => log)
  wait.call("worker #{pid}") { File.exist?(log) && File.read(log).include?("serving") }
  pid
end
host = Socket.gethostname
items = (0...100).map { |n| [n, 0.03] }
rows = Array.new(trials) do
  pids = Array.new(2) { start_worker.call }
  pool = Heddle::Pool.new(worker: :redis, handler: :"test.slow", url: url)
  pool.map(items.first(4))
  started = now.call
  pool.map(items)
  undisturbed = now.call - started
  key = pool.instance_variable_get(:@backend).keys[:items]
  victim = pids.first
  killer = Thread.new do
    sleep undisturbed / 3
    wait.call("the victim to hold an entry") { admin.call("XPENDING", key, "heddle", "-", "+", 1, "#{host}:#{victim}:0").any? }
    Process.kill("KILL", victim)
    now.call
  end
  results = pool.map(items)
  ended = now.call
  killed_at = killer.value
  abort "wrong results" unless results.map(&:first) == items.map(&:first)
  pool.shutdown
  pids.each { |pid| Process.kill("TERM", pid) rescue nil } # rubocop:disable Style/RescueModifier -- the victim is gone
  pids.each { |pid| Process.wait(pid) }
  [undisturbed, ended - killed_at, ended - started]
end
Process.kill("TERM", server)
Process.wait(server)
FileUtils.rm_rf(dir)
median = ->(xs) { xs.sort[xs.size / 2] }
puts "#{RUBY_DESCRIPTION}; #{trials} trials; 2 workers, 100 items of 0.03 s, visibility_timeout 30 s"
%w[undisturbed_map_s kill_to_end_s killed_map_s].each_with_index do |name, i|
  xs = rows.map { |r| r[i] }
  puts format("%-20s median %.2f  min %.2f  max %.2f", name, median.call(xs), xs.min, xs.max)
end
