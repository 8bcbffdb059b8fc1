# frozen_string_literal: true

# Where a warm 2-process heddle pool's worker waits during the map suite's
# 100 CPU-heavy items: each child logs when it starts and ends every chunk
# (CLOCK_MONOTONIC is system-wide), and the parent sums, per worker, the
# time from the map's start to its first chunk, between its chunks (the lane's
# round trip: read DONE, take the next chunk, marshal, write), and from its
# last chunk to the map's end (waiting for the other worker: the imbalance).
#   bundle exec ruby bench/scripts/workers/heavy_gaps.rb [rounds]
require "heddle"
require "heddle/bench"
require "tmpdir"
require_relative "../../../lib/heddle-bench/heddle/bench/suites/map" unless defined?(Heddle::Bench::MapSuite)

LOG_DIR = Dir.mktmpdir("heddle-gaps")
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
# Logs each chunk's start and end in the child (a probe, not heddle's code).
Heddle::Workers::Processes::Child.prepend(Module.new do
  define_method(:serve) do |payload|
    start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    super(payload)
    File.write(File.join(LOG_DIR, Process.pid.to_s), "#{start} #{Process.clock_gettime(Process::CLOCK_MONOTONIC)}\n",
               mode: "a")
  end
end)

suite = Heddle::Bench::MapSuite
items = Array.new(suite::HEAVY_ITEMS) { |i| i }
pool = Heddle::Pool.new(worker: :process, size: 2, &suite.method(:heavy))
pool.map(items) # warm-up
Integer(ARGV[0] || 3).times do
  Dir.children(LOG_DIR).each { |f| File.delete(File.join(LOG_DIR, f)) }
  t0 = now.call
  pool.map(items)
  t1 = now.call
  sleep 0.05 # the children's last log lines
  per_worker = Dir.children(LOG_DIR).map do |pid|
    spans = File.readlines(File.join(LOG_DIR, pid)).map { |l| l.split.map(&:to_f) }.sort
    between = spans.each_cons(2).sum { |(_, a), (b, _)| b - a }
    format("%<c>2d chunks: before first %<f>.1f ms, between chunks %<b>.1f ms, after last %<l>.1f ms",
           c: spans.size, f: (spans.first[0] - t0) * 1e3, b: between * 1e3, l: (t1 - spans.last[1]) * 1e3)
  end
  puts format("map %<w>.3f s; %<p>s", w: t1 - t0, p: per_worker.join("; "))
end
pool.shutdown
puts "load #{File.read('/proc/loadavg').split[0, 3].join(' ')}"
