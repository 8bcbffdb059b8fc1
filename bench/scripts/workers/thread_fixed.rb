# frozen_string_literal: true

# A warm 2-thread heddle pool mapping n trivial items, n = 1 ... 10,000: the
# fixed cost of a map (two thread hand-overs) and the cost per item.
#   bundle exec ruby bench/scripts/workers/thread_fixed.rb
require "heddle"

now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
pool = Heddle::Pool.new(worker: :thread, size: 2) { |i| i * 2 }
[1, 10, 100, 1000, 10_000].each do |n|
  items = (0...n).to_a
  20.times { pool.map(items) }
  times = Array.new(200) do
    t = now.call
    pool.map(items)
    now.call - t
  end.sort
  puts format("n=%<n>5d median %<m>.1f µs min %<lo>.1f µs", n: n, m: times[times.size / 2] * 1e6, lo: times[0] * 1e6)
end
pool.shutdown
puts "load #{File.read('/proc/loadavg').split[0, 3].join(' ')}"
