# frozen_string_literal: true

# The scheduler_io suite's TCP echo job (a server and its clients on one thread, 64-byte lockstep
# messages) under heddle or async, one library per process: CPU and GC µs per round trip over 5 jobs,
# each after a GC.start, sorted; --trace counts the Ruby events (call, c_call, b_call) per round
# trip of one job instead, the top N by method.
#   bundle exec ruby bench/scripts/scheduler/echo_costs.rb heddle|async [connections] [rounds] [--trace [N]]
library = ARGV[0] or abort "usage: echo_costs.rb heddle|async [connections] [rounds] [--trace [N]]"
connections = Integer(ARGV[1] || 1000)
rounds = Integer(ARGV[2] || 20)
trace = ARGV.index("--trace")
top = trace && ARGV[trace + 1] ? Integer(ARGV[trace + 1]) : 30
require "socket"
library == "async" ? require("async") : require("heddle")

def echo_job(library, connections, rounds)
  server = TCPServer.new("127.0.0.1", 0)
  port = server.addr[1]
  message = "m" * 64
  done = 0
  body = proc do
    Fiber.schedule do
      connections.times do
        client = server.accept
        Fiber.schedule do
          while (bytes = client.read(64))
            client.write(bytes)
          end
          client.close
        end
      end
    end
    connections.times do
      Fiber.schedule do
        socket = TCPSocket.new("127.0.0.1", port)
        rounds.times do
          socket.write(message)
          socket.read(64) == message or raise "the echo lost its message"
          done += 1
        end
        socket.close
      end
    end
  end
  Thread.new { library == "async" ? Async(&body).wait : Heddle.run(&body) }.join
  done
ensure
  server&.close
end

def cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)

echo_job(library, 100, 2) # warm-up
if trace
  counts = Hash.new(0)
  tracer = TracePoint.new(:call, :c_call, :b_call) { |tp| counts["#{tp.event} #{tp.defined_class}##{tp.method_id}"] += 1 }
  tracer.enable
  done = echo_job(library, connections, rounds)
  tracer.disable
  puts format("%s %dx%d on %s: %.1f events per round trip", library, connections, rounds, RUBY_DESCRIPTION,
              counts.values.sum.to_f / done)
  counts.sort_by { |_, count| -count }.first(top).each { |name, count| puts format("  %8.2f  %s", count.to_f / done, name) }
else
  runs = Array.new(5) do
    GC.start
    gc = GC.stat(:time)
    started = cpu
    done = echo_job(library, connections, rounds)
    [(cpu - started) * 1e6 / done, (GC.stat(:time) - gc) * 1000.0 / done]
  end.sort
  puts format("%s %dx%d on %s: CPU µs per round trip %s; GC µs %s", library, connections, rounds, RUBY_DESCRIPTION,
              runs.map { |c, _| c.round(1) }.inspect, runs.map { |_, g| g.round(1) }.inspect)
end
