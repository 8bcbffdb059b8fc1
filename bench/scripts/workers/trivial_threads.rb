# frozen_string_literal: true

# 1,000 trivial items on 2 threads: a warm heddle thread pool against
# Parallel.map(in_threads: 2) and a plain map, interleaved in one process
# (the map suite's trivial rows without the harness). Usage:
#   bundle exec ruby bench/scripts/workers/trivial_threads.rb [rounds] [maps per round]
require "heddle"
require "heddle/bench"
require "parallel"
require_relative "../../../lib/heddle-bench/heddle/bench/suites/map" unless defined?(Heddle::Bench::MapSuite)

suite = Heddle::Bench::MapSuite
items = Array.new(suite::TRIVIAL_ITEMS) { |i| i }
expected = items.map { |i| suite.trivial(i) }
rounds = Integer(ARGV[0] || 7)
per = Integer(ARGV[1] || 50)
pool = Heddle::Pool.new(worker: :thread, size: 2, &suite.method(:trivial))
rows = {
  "plain map" => -> { items.map { |i| suite.trivial(i) } },
  "heddle thread pool, warm" => -> { pool.map(items) },
  "Parallel.map in_threads: 2" => -> { Parallel.map(items, in_threads: 2) { |i| suite.trivial(i) } }
}
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
cpu = -> { Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) }
times = Hash.new { |h, k| h[k] = [] }
cpus = Hash.new { |h, k| h[k] = [] }
rows.each_value { |job| 20.times { job.call } } # warm-up
rounds.times do
  rows.to_a.shuffle.each do |name, job|
    per.times do
      t = now.call
      c = cpu.call
      raise "#{name}: wrong result" unless job.call == expected

      times[name] << now.call - t
      cpus[name] << cpu.call - c
    end
  end
end
pool.shutdown
med = ->(a) { a.sort[a.size / 2] }
fmt = ->(s) { format("%.1f µs", s * 1e6) }
rows.each_key do |name|
  a = times[name]
  puts format("%-28s wall %s [%s–%s]  cpu %s", name, fmt.call(med.call(a)), fmt.call(a.min), fmt.call(a.max),
              fmt.call(med.call(cpus[name])))
end
ratio = med.call(times["Parallel.map in_threads: 2"]) / med.call(times["heddle thread pool, warm"])
puts format("heddle thread pool vs Parallel in_threads: %.2fx faster (wall medians); load %s", ratio,
            File.read("/proc/loadavg").split[0, 3].join(" "))
