require "loom"
require "loom/check"
require "parallel"
module FS; def self.failure(v) = v > 100 ? raise("#{v} > 100") : nil; end
SEED = 17_243_810_592_888_013_452_170_775_373_100_387_856
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def flts = File.read("/proc/self/stat").split.values_at(9, 10).map(&:to_i)
def cpu = Process.times.then { |t| [t.utime + t.stime, t.cutime + t.cstime] }
$t = Hash.new(0.0); $n = Hash.new(0); $f = Hash.new(0)
def tm(k); t = now; f = flts[0]; r = yield; $t[k] += now - t; $f[k] += flts[0] - f; $n[k] += 1; r; end
Loom::Check::Runners::Pool.prepend(Module.new do
  def initialize(*a, **k) = tm(:pool_new) { super }
  def first_failure(c, d) = tm($first ? :first_call : :later_calls) { $first = false; super }
  def close(**k) = tm(:close) { super }
end)
Loom::Workers::ProcessLane.prepend(Module.new do
  def spawn = tm(:spawn) { super }
end)
n = 20
f0 = flts; c0 = cpu; t0 = now
n.times do
  $first = true
  prop = Loom::Check.property(Loom::Check.integer) { |x| FS.failure(x) }
  tm(:total) { Loom::Check.check(prop, worker: :process, seed: SEED) }
end
Loom::Workers::ProcessBackend.drain_reaper
f1 = flts; c1 = cpu
$t.each { |k, v| printf "%-12s %7.2f ms/check  parent faults %5.0f/check (%d calls)\n", k, v * 1000 / n, $f[k].to_f / n, $n[k] }
printf "cpu parent %.1f children %.1f ms/check; faults parent %d children %d /check; load %s\n", (c1[0]-c0[0])*1000/n, (c1[1]-c0[1])*1000/n, (f1[0]-f0[0])/n, (f1[1]-f0[1])/n, File.read("/proc/loadavg").split[0]
