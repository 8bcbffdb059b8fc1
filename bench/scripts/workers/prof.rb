require "loom"
require "loom/check"
require "parallel"
require "pbt" rescue nil
module FS; def self.failure(v) = v > 100 ? raise("#{v} > 100") : nil; end
SEED = 17_243_810_592_888_013_452_170_775_373_100_387_856
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
$t = Hash.new(0.0); $n = Hash.new(0)
def tm(k); t = now; r = yield; $t[k] += now - t; $n[k] += 1; r; end
Loom::Check::Runners::Pool.prepend(Module.new do
  def initialize(*a, **k) = tm(:pool_new) { super }
  def first_failure(*a) = tm(:first_failure) { super }
  def close(**k) = tm(:close) { super }
end)
Loom::Workers::ProcessBackend.prepend(Module.new do
  def start
    tm(:gc) { GC.start }
    super
  end
end)
GC.singleton_class.prepend(Module.new { def start(...) = $in_gc ? super : ($in_gc = true; r = super; $in_gc = false; r) })
Loom::Workers::ProcessLane.prepend(Module.new do
  def spawn = tm(:spawn) { super }
  def stop_worker = tm(:stop_worker) { super }
end)
n = 10
n.times do
  prop = Loom::Check.property(Loom::Check.integer) { |x| FS.failure(x) }
  tm(:total) { Loom::Check.check(prop, worker: :process, seed: SEED) }
end
$t.each { |k, v| printf "%-14s %7.2f ms/check  (%d calls)\n", k, v * 1000 / n, $n[k] }
p GC.stat.slice(:heap_live_slots, :count)
