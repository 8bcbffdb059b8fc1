# frozen_string_literal: true

# What one connection set-up costs heddle and async, counted rather than timed: the job of
# scheduler_io's "connection set-up" row (a TCP echo server and N clients on one thread, one 64-byte
# round trip each), run twice in one process, with N1 then N2 connections, so that start-up, loading
# and warm-up cancel out: per connection = (count at N2 - count at N1) / (N2 - N1).
#
#   bundle exec ruby bench/scripts/scheduler/connect_costs.rb heddle|nohooks|async [n1] [n2] [--repeat K [--one-loop]] [--variant V] [--rounds R] [--trace [--top N]]
#
# - system calls: run it under `strace -f -c -o OUT` twice, with n2 = n1 (the baseline) and n2 > n1,
#   and subtract; instructions alike under `valgrind --tool=callgrind` (run `ruby` itself, not `bundle exec`);
# - --repeat K runs the second job K times, each in a fresh thread and loop as scheduler_io's trials do
#   (per connection then divides by K * (n2 - n1)): more GC runs to average over;
# - --one-loop runs those K jobs one after the other in one loop (a long-lived server's waves);
# - with --trace: a TracePoint counts Ruby calls (:call, :b_call) and C calls (:c_call) in the second job
#   only, per connection, and prints the 25 most frequent methods of each kind.
require "bundler/setup"
require "heddle"
require "socket"

library = ARGV[0] or abort "usage: connect_costs.rb heddle|nohooks|async [n1] [n2] [--trace [--top N]]"
# Only for its own rows: async patches Fiber#initialize (annotations, storage), which heddle's fibers
# would pay for too (scheduler_io runs each library in a process of its own).
require "async" if library == "async"

# Probes of two causes of its GC cost (docs/journal/scheduler.md), not heddle's behaviour:
# --variant forget: NIOWatch forgets an IO's registration when its last waiter leaves (as io-event
#   does), instead of keeping it for later waits; --variant pool64: 64 idle fibers per loop, not 1,000;
#   --variant both.
variant = ARGV.include?("--variant") ? ARGV[ARGV.index("--variant") + 1] : "none"
if %w[forget both].include?(variant)
  Heddle::EventLoop::Selectors::NIOWatch.prepend(Module.new do
    def remove_reader(io, waiter) = super.tap { forget(io) }
    def remove_writer(io, waiter) = super.tap { forget(io) }

    def forget(io)
      reg = @regs[io] or return
      return unless reg.readers.empty? && reg.writers.empty?

      @regs.delete(io)
      reg.monitor&.close
    end
  end)
end
if %w[pool64 both].include?(variant)
  Heddle::EventLoop.send(:remove_const, :POOL_SIZE)
  Heddle::EventLoop.const_set(:POOL_SIZE, 64)
end
n1 = Integer(ARGV[1] || 100)
n2 = Integer(ARGV[2] || 1_100)
trace = ARGV.include?("--trace")
top = Integer(ARGV[ARGV.index("--top") + 1]) if ARGV.include?("--top")
# --rounds R: R lockstep round trips per connection (the echo rows) instead of 1
ROUNDS = ARGV.include?("--rounds") ? Integer(ARGV[ARGV.index("--rounds") + 1]) : 1
repeat = ARGV.include?("--repeat") ? Integer(ARGV[ARGV.index("--repeat") + 1]) : 1

def echo_job(connections, server, port, wait: false, rounds: ROUNDS)
  finished = Thread::Queue.new if wait
  message = "m" * 64
  done = 0
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
      end
      done += 1
      socket.close
      finished&.push(true)
    end
  end
  connections.times { finished.pop } if wait # the next wave starts when this one is done
  done
end

def under(library, &job)
  Thread.new do
    case library
    when "heddle" then Heddle.run(&job)
    when "nohooks"
      Fiber.set_scheduler(Heddle::Scheduler.new(io_hooks: false))
      Heddle.run(&job)
    when "async" then Async(&job).wait
    else abort "unknown library #{library}"
    end
  end.join
end

server = TCPServer.new("127.0.0.1", 0)
port = server.addr[1]
under(library) { echo_job(n1, server, port) }
counts = Hash.new(0)
files = Hash.new(0)
here = "#{Dir.pwd}/"
tracer = TracePoint.new(:call, :c_call, :b_call) do |tp|
  # a :c_call's path is the Ruby file that made the call: events by file say which part pays
  files[tp.path.sub(here, "").sub(%r{.*/gems/}, "")] += 1
  counts[[tp.event, tp.event == :b_call ? tp.path.sub(%r{.*/gems/}, "").sub(Dir.pwd + "/", "") + ":#{tp.lineno}" : "#{tp.defined_class}##{tp.method_id}"]] += 1
end
GC.start
gc_before = GC.stat(:count)
allocated = GC.stat(:total_allocated_objects)
gc_time = GC.stat(:time) # ms, Ruby >= 3.1
majors = GC.stat(:major_gc_count)
cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
wall = Process.clock_gettime(Process::CLOCK_MONOTONIC)
tracer.enable if trace
if n2 > n1 && ARGV.include?("--one-loop")
  under(library) { repeat.times { echo_job(n2 - n1, server, port, wait: true) } } # waves in one loop, as a long-lived server
elsif n2 > n1
  repeat.times { under(library) { echo_job(n2 - n1, server, port) } }
end
tracer.disable
cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu
wall = Process.clock_gettime(Process::CLOCK_MONOTONIC) - wall
allocated = GC.stat(:total_allocated_objects) - allocated
server.close
per = (n2 - n1).to_f * repeat
if !trace && n2 > n1
  puts format("%s on %s, %d connections: %.1f objects allocated per connection; GC runs %d (%d major), " \
              "GC time %.1f µs per connection of %.1f µs CPU, %.1f µs wall", library, RUBY_DESCRIPTION, (n2 - n1) * repeat,
              allocated / per, GC.stat(:count) - gc_before, GC.stat(:major_gc_count) - majors,
              (GC.stat(:time) - gc_time) * 1000 / per, cpu * 1e6 / per, wall * 1e6 / per)
end
exit unless trace

totals = counts.group_by { |(event, _), _| event }.transform_values { |rows| rows.sum { |_, c| c } }
puts "#{library} on #{RUBY_DESCRIPTION}, #{(n2 - n1) * repeat} connections, GC runs #{GC.stat(:count) - gc_before}"
totals.each { |event, total| puts format("%-7s %8.1f per connection", event, total / per) }
puts "-- every event, by the file that made it: top #{top || 25} per connection"
files.sort_by { |_, c| -c }.first(top || 25).each { |file, c| puts format("  %6.2f  %s", c / per, file) }
%i[call c_call b_call].each do |event|
  puts "-- #{event}: top #{top || 25} per connection"
  counts.select { |(e, _), _| e == event }.sort_by { |_, c| -c }.first(top || 25).each do |(_, name), c|
    puts format("  %6.2f  %s", c / per, name)
  end
end
