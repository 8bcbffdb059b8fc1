# The same CPU-bound work (100 x tarai(9, 4, 0)) split over N ractors started at once, no driver involved:
# how wall time depends on the number of runnable ractors when the machine is loaded (Pbt's ractor worker
# starts 100, one per run; heddle's check runner keeps 2 per worker alive). Random order, 7 trials per N.
# usage: bundle exec ruby bench/scripts/check/ractor_share.rb
require "heddle"
require "heddle/check"
require "heddle/bench"
load File.expand_path("../../../lib/heddle-bench/heddle/bench/suites/checks.rb", __dir__)
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
Warning[:experimental] = false
def go(count)
  per = 100 / count
  t = now
  ractors = Array.new(count) { Ractor.new(per) { |k| k.times { Heddle::Bench::ChecksSuite.tarai(9, 4, 0) } } }
  ractors.each(&:take)
  ((now - t) * 1e3).round
end
go(2)
puts "load before: #{File.read('/proc/loadavg')}"
res = Hash.new { |h, k| h[k] = [] }
7.times { [1, 2, 4, 10, 20, 100].shuffle.each { |n| res[n] << go(n) } }
res.sort.each { |n, v| puts "#{n} ractors: median #{v.sort[v.size / 2]} ms [#{v.min}–#{v.max}]" }
puts "load after: #{File.read('/proc/loadavg')}"
