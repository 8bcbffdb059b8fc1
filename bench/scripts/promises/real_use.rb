# frozen_string_literal: true

# Does the thread waiters' GVL spin hurt uses unlike the bench job? Three
# cases, each in this process with Spinner.passes from PASSES (0: park at
# once, 16: always spin, unset: :auto, the default):
#   idle  500 threads wait on promises resolved together after 0.5 s: process
#         CPU spent while they wait, and the time until all have their value
#   hog   a CPU-bound thread counts loop turns while 10 threads each wait for
#         5 values a resolver thread hands out 1 ms apart: the hog's turns
#         per second (the spin must not steal its GVL time) and the wall time
#         (each hand-off waits for the hog's 100 ms time slice, spin or not)
#   slow  the bench job (10 waiters, 1 resolver, 20,000 promises) with a
#         resolver that works ~100 us per promise: wall and CPU
# Prints one line "case wall cpu extra".
#   for p in 0 16 ""; do PASSES=$p bundle exec ruby bench/scripts/promises/real_use.rb idle; done
$LOAD_PATH.unshift File.expand_path(ENV.fetch("LIB", "../../../lib/heddle"), __dir__)
require "heddle"

Heddle::Promises::Spinner.passes = Integer(ENV["PASSES"]) if ENV["PASSES"] && !ENV["PASSES"].empty?

def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)

def idle
  promises = Array.new(500) { Heddle::Promise.new }
  threads = promises.map { |p| Thread.new { p.value(10) } }
  sleep 0.05 # every thread waiting
  c0 = cpu
  sleep 0.5
  waiting_cpu = cpu - c0
  t0 = clock
  promises.each { |p| p.fulfill(1) }
  threads.each(&:join)
  [clock - t0, waiting_cpu, "cpu while 500 threads wait 0.5 s: #{(waiting_cpu * 1000).round(2)} ms"]
end

def hog
  turns = 0
  stop = false
  hog = Thread.new { turns += 1 until stop }
  wall, used = hand_out_slowly
  stop = true
  hog.join
  [wall, used, "hog #{(turns / wall / 1e6).round(2)}M turns/s"]
end

# 10 threads each wait for 5 values a resolver hands out 1 ms apart.
def hand_out_slowly
  jobs = Thread::Queue.new
  waiters = Array.new(10) { Thread.new { 5.times { Heddle::Promise.new.tap { |p| jobs << p }.value(30) } } }
  resolver = Thread.new do
    50.times do
      jobs.pop.fulfill(true)
      sleep 0.001
    end
  end
  t0 = clock
  c0 = cpu
  waiters.each(&:join)
  resolver.join
  [clock - t0, cpu - c0]
end

def slow
  jobs = Thread::Queue.new
  resolver = Thread.new do
    20_000.times do
      promise = jobs.pop
      t = clock
      nil while clock - t < 0.0001 # the resolver's own work per promise
      promise.fulfill(true)
    end
  end
  t0 = clock
  c0 = cpu
  Array.new(10) { Thread.new { 2000.times { Heddle::Promise.new.tap { |p| jobs << p }.value } } }.each(&:join)
  resolver.join
  [clock - t0, cpu - c0, ""]
end

wall, used, extra = send(ARGV.fetch(0))
puts format("%<case>s %<wall>.4f %<cpu>.4f %<extra>s", case: ARGV[0], wall: wall, cpu: used, extra: extra)
