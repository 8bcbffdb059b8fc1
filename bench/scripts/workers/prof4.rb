require "loom"
require "loom/check"
module FS; def self.failure(v) = v > 100 ? raise("#{v} > 100") : nil; end
SEED = 17_243_810_592_888_013_452_170_775_373_100_387_856
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
Loom::Check::Runners::Pool.prepend(Module.new do
  def first_failure(c, d)
    t = now; r = super; $calls << "#{c.size}:#{((now - t) * 1000).round(1)}"; r
  end
  def close(**k) = (t = now; super; $calls << "close:#{((now - t) * 1000).round(1)}")
end)
6.times do
  $calls = []
  t = now
  prop = Loom::Check.property(Loom::Check.integer) { |x| FS.failure(x) }
  Loom::Check.check(prop, worker: :process, seed: SEED)
  puts "#{((now - t) * 1000).round(1)} ms: #{$calls.join(' ')}"
end
puts File.read("/proc/loadavg")
