# Where a pooled ractor check (a Heddle::Pool of 2 ractors, the runner worker: :ractor used before RactorChunks)
# spends its time on cpu_bound (tarai(9, 4, 0), 100 runs): starting the runner (the pool), the runs, and
# closing it (the pool's shutdown). Checks in one process after a warm-up, median [min–max].
# usage: bundle exec ruby bench/scripts/check/ractor_phases.rb [trials]
require "heddle"
require "heddle/check"
require "heddle/bench"
load File.expand_path("../../../lib/heddle-bench/heddle/bench/suites/checks.rb", __dir__)
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
Warning[:experimental] = false
$marks = []
Heddle::Check::Runners.singleton_class.prepend(Module.new do
  def for(property, options)
    return super unless options.worker == :ractor

    Heddle::Check::Runners::Pool.new(property, worker: :ractor, size: options.size)
  end
end)
Heddle::Check::Runners::Pool.prepend(Module.new do
  def initialize(*args, **options) = super.tap { $marks << [:start, now] }
  def first_failure(*args) = super.tap { $marks << [:runs, now] }
  def close(**options) = super.tap { $marks << [:close, now] }
end)
prop = lambda do
  Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) }
end
2.times { Heddle::Check.assert(prop.call, worker: :ractor, size: 2) }
phases = Hash.new { |h, k| h[k] = [] }
(ARGV[0] || 9).to_i.times do
  $marks.clear
  t = now
  Heddle::Check.assert(prop.call, worker: :ractor, size: 2)
  phases[:check] << (now - t) * 1e3
  started = $marks.assoc(:start)[1]
  ran = $marks.select { |name, _| name == :runs }.last[1]
  phases[:start] << (started - t) * 1e3
  phases[:runs] << (ran - started) * 1e3
  phases[:close] << ($marks.assoc(:close)[1] - ran) * 1e3
end
puts "load #{File.read('/proc/loadavg').split.first(3).join(' ')}"
phases.each { |n, v| s = v.sort; printf("%-6s %.1f ms [%.1f–%.1f]\n", n, s[s.size / 2], s.first, s.last) }
