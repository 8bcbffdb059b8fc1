# frozen_string_literal: true

# A `heddle worker` frozen with SIGSTOP while it holds an entry, for S
# seconds, then continued: how long the map takes (against the same map
# undisturbed), whether it ended while the worker was still stopped, and
# what the woken worker logs. 2 workers (1 thread lane each), 300 items of
# 0.02 s (test/support/redis_handlers.rb's test.slow), the default
# visibility timeout (30 s), a redis-server of its own on 127.0.0.1.
#
#   bundle exec ruby bench/scripts/redis/frozen_worker.rb [trials] [seconds,...]
require "socket"
require "tmpdir"
require "rbconfig"
root = File.expand_path("../../..", __dir__)
roots = %w[heddle heddle-redis].map { |gem| File.join(root, "lib", gem) }
$LOAD_PATH.unshift(*roots)
require "heddle"
require "heddle/workers/redis"
handlers = File.join(root, "test/support/redis_handlers.rb")
require handlers
Heddle::Workers::Redis::Client.load_gem

trials = Integer(ARGV.fetch(0, 3))
stops = ARGV.fetch(1, "10,45").split(",").map { |s| Float(s) }
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
wait = lambda do |what, seconds = 60, &ready|
  deadline = now.call + seconds
  sleep 0.005 until ready.call || (now.call > deadline && abort("gave up waiting for #{what}"))
end
port = TCPServer.new("127.0.0.1", 0).then { |s| s.addr[1].tap { s.close } }
dir = Dir.mktmpdir("heddle-frozen")
url = "redis://127.0.0.1:#{port}/0"
server = Process.spawn("redis-server", "--port", port.to_s, "--bind", "127.0.0.1", "--save", "", "--dir", dir,
                       %i[out err] => File::NULL)
admin = RedisClient.config(url: url).new_client
wait.call("redis") { admin.call("PING") rescue nil } # rubocop:disable Style/RescueModifier -- not up yet
start_worker = lambda do
  log = File.join(dir, "w#{rand(1 << 30)}.log")
  pid = Process.spawn(RbConfig.ruby, *roots.flat_map { |r| ["-I", r] }, "#{root}/exe/heddle", "worker",
                      "--redis", url, "--require", handlers, %i[out err] => log)
  wait.call("worker #{pid}") { File.exist?(log) && File.read(log).include?("serving") }
  [pid, log]
end
items = (0...300).map { |n| [n, 0.02] }
holding = lambda do |pool, pid|
  key = pool.instance_variable_get(:@backend).keys[:items]
  admin.call("XPENDING", key, "heddle", "-", "+", 1, "#{Socket.gethostname}:#{pid}:0").any?
end
median = ->(xs) { xs.sort[xs.size / 2] }

begin
  workers = Array.new(2) { start_worker.call }
  pool = Heddle::Pool.new(worker: :redis, handler: :"test.slow", url: url)
  pool.map(items.first(20))
  calm = Array.new(trials) { (t = now.call) && pool.map(items) && now.call - t }
  puts "ruby #{RUBY_VERSION}#{' --yjit' if defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?}, #{trials} trials"
  puts format("undisturbed map: median %.2f s [%.2f-%.2f]", median.call(calm), calm.min, calm.max)
  stops.each do |stop|
    runs = Array.new(trials) do
      pid, log = workers.first
      map = Thread.new { (t = now.call) && pool.map(items) && now.call - t }
      wait.call("an entry held") { holding.call(pool, pid) }
      Process.kill("STOP", pid)
      stopped_at = now.call
      seconds = map.value
      ended_stopped = now.call - stopped_at < stop
      sleep [stop - (now.call - stopped_at), 0].max
      Process.kill("CONT", pid)
      wait.call("the woken worker to drop its entry") { File.read(log).include?("taken over: this worker") }
      File.write(log, "") # the next trial's lines only
      [seconds, ended_stopped]
    end
    times = runs.map(&:first)
    puts format("stopped %4.0f s: map median %.2f s [%.2f-%.2f], ended while stopped in %d of %d",
                stop, median.call(times), times.min, times.max, runs.count(&:last), trials)
  end
ensure
  pool&.shutdown
  workers&.each { |pid, _| Process.kill("KILL", pid) rescue nil } # rubocop:disable Style/RescueModifier -- gone already
  Process.kill("TERM", server)
  Process.wait(server)
end
