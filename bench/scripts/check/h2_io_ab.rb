# io_bound: heddle inline vs pbt none, harness-like (GC.start before each), faults, GCs, malloc limit.
require "heddle"
require "heddle/check"
require "heddle/bench"
require "pbt"
load File.expand_path("../../../lib/heddle-bench/heddle/bench/suites/checks.rb", __dir__)
S = Heddle::Bench::ChecksSuite
S.write_text
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def faults = File.read("/proc/self/stat").split[9].to_i
V = {
  "heddle" => -> {
    prop = Heddle::Check.property(Heddle::Check.ascii_string) { |str| Heddle::Bench::ChecksSuite.io_bound(str) }
    Heddle::Check.assert(prop, worker: :inline, seed: S::SEED)
  },
  "pbt" => -> {
    Pbt.assert(worker: :none, seed: S::SEED, num_runs: 100) do
      Pbt.property(Pbt.ascii_string) { |str| Heddle::Bench::ChecksSuite.io_bound(str) }
    end
  },
  "cpu" => -> {
    prop = Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) }
    Heddle::Check.assert(prop, worker: :inline, runs: 10)
  }
}
names = (ENV["VARIANTS"] || "heddle,pbt").split(",")
trials = Integer(ARGV[0] || 10)
(names * trials).shuffle(random: Random.new(Integer(ENV["SEED"] || 1))).each do |n|
  GC.start
  lim = GC.stat(:malloc_increase_bytes_limit)
  g = GC.stat; f = faults; t = now
  V[n].call
  d = now - t; g2 = GC.stat; f2 = faults
  printf("%-5s %6.1f ms faults %5d minor %d major %d limit_before %5.1fMB inc_after %5.1fMB reason %s\n", n, d * 1e3, f2 - f,
         g2[:minor_gc_count] - g[:minor_gc_count], g2[:major_gc_count] - g[:major_gc_count], lim / 1e6,
         GC.stat(:malloc_increase_bytes) / 1e6, (g2[:count] > g[:count] ? GC.latest_gc_info.slice(:major_by, :gc_by).inspect : "-"))
end
