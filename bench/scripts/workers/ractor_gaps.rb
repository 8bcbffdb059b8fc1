# frozen_string_literal: true

# heavy_gaps.rb for a warm 2-ractor heddle pool: each worker ractor sends the
# start and end of every chunk (CLOCK_MONOTONIC) to an inbox of the probe's
# own at heddle's collector, and the probe sums, per worker, the wait before its
# first chunk, between its chunks (the round trip: the collector's and the
# lane's wake-ups, the copy, the send) and after its last.
#   bundle exec ruby bench/scripts/workers/ractor_gaps.rb [rounds]
require "heddle"
require "heddle/bench"
require_relative "../../../lib/heddle-bench/heddle/bench/suites/map" unless defined?(Heddle::Bench::MapSuite)

Warning[:experimental] = false
TIMES = Thread::Queue.new
TIMING_TOKEN = Heddle::Workers::Ractors::Backend.open_inbox(TIMES)

# A probe, not heddle's code: the worker's chunk loop, timed (a def, so that
# a ractor may call it; it reads only constants).
module Heddle
  module Workers
    module Ractors::Worker
      class << self
        alias untimed_run_chunk run_chunk

        def run_chunk(handler, items, fail_fast, item_timeout)
          start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          results = untimed_run_chunk(handler, items, fail_fast, item_timeout)
          Ractor.main.send([TIMING_TOKEN, [Ractor.current.name, start, Process.clock_gettime(Process::CLOCK_MONOTONIC)]])
          results
        end
      end
    end
  end
end

now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
suite = Heddle::Bench::MapSuite
items = Array.new(suite::HEAVY_ITEMS) { |i| i }
pool = Heddle::Pool.new(worker: :ractor, size: 2, &suite.method(:heavy))
pool.map(items) # warm-up
sleep 0.05
TIMES.clear
Integer(ARGV[0] || 3).times do
  t0 = now.call
  pool.map(items)
  t1 = now.call
  sleep 0.05 # the last timing messages
  spans = Array.new(TIMES.size) { TIMES.pop }.group_by(&:first)
  per_worker = spans.values.map do |list|
    list = list.map { |_, a, b| [a, b] }.sort
    between = list.each_cons(2).sum { |(_, a), (b, _)| b - a }
    format("%<c>2d chunks: before first %<f>.1f ms, between chunks %<b>.1f ms, after last %<l>.1f ms",
           c: list.size, f: (list.first[0] - t0) * 1e3, b: between * 1e3, l: (t1 - list.last[1]) * 1e3)
  end
  puts format("map %<w>.3f s; %<p>s", w: t1 - t0, p: per_worker.join("; "))
end
pool.shutdown
Heddle::Workers::Ractors::Backend.collector.close(TIMING_TOKEN)
puts "load #{File.read('/proc/loadavg').split[0, 3].join(' ')}"
