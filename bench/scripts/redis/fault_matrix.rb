# frozen_string_literal: true

# What a caller sees when a fault lands mid-map, and how long until the map
# ends, against the same map undisturbed: 2 `heddle worker`s (1 thread lane
# each, a shared secret), 200 items of 0.02 s (test/support/redis_handlers.rb's
# test.slow), visibility timeout 30 s, reconnect_timeout 10 s, a redis-server
# of its own on 127.0.0.1 with AOF. Each fault lands once the first worker
# holds an entry; every answer is checked (each index once, in order).
#
#   bundle exec ruby bench/scripts/redis/fault_matrix.rb [trials]   # ONLY=text: the faults named so
require "socket"
require "tmpdir"
require "json"
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
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
wait = lambda do |what, seconds = 60, &ready|
  deadline = now.call + seconds
  sleep 0.005 until ready.call || (now.call > deadline && abort("gave up waiting for #{what}"))
end
port = TCPServer.new("127.0.0.1", 0).then { |s| s.addr[1].tap { s.close } }
dir = Dir.mktmpdir("heddle-faults")
url = "redis://127.0.0.1:#{port}/0"
secret = File.join(dir, "secret").tap { |f| File.write(f, "a secret for the fault matrix, 32+ bytes\n") }
server = nil
start_server = lambda do
  server = Process.spawn("redis-server", "--port", port.to_s, "--bind", "127.0.0.1", "--save", "", "--dir", dir,
                         "--appendonly", "yes", "--enable-debug-command", "yes", %i[out err] => File::NULL)
end
start_server.call
admin = RedisClient.config(url: url, reconnect_attempts: 0).new_client
up = -> { admin.call("PING") rescue nil } # rubocop:disable Style/RescueModifier -- not up yet
wait.call("redis", &up)
start_worker = lambda do
  log = File.join(dir, "w#{rand(1 << 30)}.log")
  pid = Process.spawn(RbConfig.ruby, *roots.flat_map { |r| ["-I", r] }, "#{root}/exe/heddle", "worker",
                      "--redis", url, "--require", handlers, "--secret-file", secret, %i[out err] => log)
  wait.call("worker #{pid}") { File.exist?(log) && File.read(log).include?("serving") }
  pid
end
workers = Array.new(2) { start_worker.call }
pool = Heddle::Pool.new(worker: :redis, handler: :"test.slow", url: url, secret_file: secret, reconnect_timeout: 10)
keys = pool.instance_variable_get(:@backend).keys
items = (0...200).map { |n| [n, 0.02] }
consumer = -> { "#{Socket.gethostname}:#{workers[0]}:0" }
holding = -> { admin.call("XPENDING", keys[:items], "heddle", "-", "+", 1, consumer.call).any? }
job = -> { pool.instance_variable_get(:@backend).instance_variable_get(:@numbers).to_s }
forge = lambda do
  id, fields = admin.call("XRANGE", keys[:items], "-", "+", "COUNT", 1).first
  fields = fields.to_a.flatten if fields.is_a?(Hash)
  admin.call("XADD", keys[:items], "*", *fields) if fields # a replayed entry
  admin.call("XADD", keys[:items], "*", "j", job.call, "f", "0", "n", "1", "p", "[[0, 1]]") # unsigned, naming item 0
  admin.call("XADD", keys[:items], "*", "x", "junk") # no job
  admin.call("XADD", keys[:results], "*", "j", job.call, "a", "0", "p", JSON.generate([[0, 0, "forged"]]))
  id
end
faults = {
  "none" => -> {},
  "kill -9 a worker (a new one starts)" => lambda {
    Process.kill("KILL", workers[0])
    Process.wait(workers[0])
    workers[0] = start_worker.call
  },
  "SIGSTOP a worker 5 s" => -> { Process.kill("STOP", workers[0]) && sleep(5) && Process.kill("CONT", workers[0]) },
  "redis-server restart (AOF)" => lambda {
    Process.kill("TERM", server)
    Process.wait(server)
    start_server.call
    wait.call("redis back", &up)
  },
  "DEBUG SLEEP 3" => -> { admin.blocking_call(10, "DEBUG", "SLEEP", 3) },
  "CLIENT PAUSE 3000 ALL" => -> { admin.call("CLIENT", "PAUSE", 3000, "ALL") },
  "OOM for 3 s (maxmemory 1)" => lambda {
    admin.call("CONFIG", "SET", "maxmemory", "1")
    sleep 3
    admin.call("CONFIG", "SET", "maxmemory", "0")
  },
  "forged, replayed and junk entries and results" => forge
}
median = ->(xs) { xs.sort[xs.size / 2] }
pool.map(items.first(10))
$stdout.sync = true # rows between the pool's warnings, in order
puts "ruby #{RUBY_VERSION}#{' --yjit' if defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?}, #{trials} trials, wall s"
puts "| fault | what the caller saw | map ends after, median [min-max] |", "|---|---|---|"
begin
  faults.select { |n, _| ENV["ONLY"].nil? || n.include?(ENV["ONLY"]) }.each do |name, fault|
    runs = Array.new(trials) do
      map = Thread.new { (t = now.call) && [pool.map(items), now.call - t] }
      map.report_on_exception = false
      wait.call("an entry held", &holding)
      fault.call
      begin
        answer, seconds = map.value
        [answer.map(&:first) == (0...200).to_a ? "every result, in order" : "WRONG ANSWER", seconds]
      rescue StandardError => e
        [e.class.name.split("::").last, nil]
      end
    end
    seen = runs.map(&:first).tally.map { |what, n| "#{what} (#{n})" }.join(", ")
    times = runs.filter_map(&:last)
    span = times.empty? ? "-" : format("%<m>.2f [%<lo>.2f-%<hi>.2f]", m: median.call(times), lo: times.min, hi: times.max)
    puts "| #{name} | #{seen} | #{span} |"
  end
ensure
  pool.shutdown rescue nil # rubocop:disable Style/RescueModifier -- the server may be the fault
  workers.each { |pid| Process.kill("KILL", pid) rescue nil } # rubocop:disable Style/RescueModifier -- gone already
  Process.kill("TERM", server)
  Process.wait(server)
end
