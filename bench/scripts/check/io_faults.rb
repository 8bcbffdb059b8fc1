# io_bound checks on heddle inline: wall time, minor page faults (/proc/self/stat) and GC counts per check.
# usage: bundle exec ruby bench/scripts/check/io_faults.rb
require "heddle"
require "heddle/check"
require "heddle/bench"
load "lib/heddle-bench/heddle/bench/suites/checks.rb"
S = Heddle::Bench::ChecksSuite
S.respond_to?(:ensure_text!) ? S.ensure_text! : nil
p File.exist?(S::TEXT_PATH) && File.size(S::TEXT_PATH)
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
prop = Heddle::Check.property(Heddle::Check.ascii_string) { |str| S.io_bound(str) }
8.times do
  g = GC.stat; f = File.read("/proc/self/stat").split[9].to_i; t = now
  Heddle::Check.assert(prop, worker: :inline, seed: S::SEED)
  d = now - t; g2 = GC.stat; f2 = File.read("/proc/self/stat").split[9].to_i
  printf("%.1f ms faults %d minor %d major %d\n", d * 1e3, f2 - f, g2[:minor_gc_count] - g[:minor_gc_count], g2[:major_gc_count] - g[:major_gc_count])
end
