# failure_simple: heddle :process (one lazy pool per check) vs :fork_per_batch, interleaved in one process.
# Wall and CPU (this process + reaped children) per check, median [min-max].
require "heddle"
require "heddle/check"
require "parallel"
module FS; def self.failure(v) = v > 100 ? raise("#{v} > 100") : nil; end
SEED = 17_243_810_592_888_013_452_170_775_373_100_387_856
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def cpu = Process.times.then { |t| t.utime + t.stime + t.cutime + t.cstime }
n = Integer(ARGV[0] || 5)
res = Hash.new { |h, k| h[k] = [] }
load0 = File.read("/proc/loadavg").split[0, 3].join(" ")
n.times do
  %i[process fork_per_batch].shuffle.each do |worker|
    t = now; c = cpu
    prop = Heddle::Check.property(Heddle::Check.integer) { |x| FS.failure(x) }
    r = Heddle::Check.check(prop, worker: worker, seed: SEED)
    Heddle::Workers::Processes::Backend.drain_reaper
    res[worker] << [now - t, cpu - c]
    # Only the answer is checked: how many shrink steps reach it is the
    # shrinker's business (6 when this probe was written, 5 since), not
    # what this probe compares.
    raise "bad counterexample #{r.counterexample.inspect}" unless r.counterexample == 101
  end
end
med = ->(a) { s = a.sort; [s[s.size / 2], s[0], s[-1]] }
res.each do |w, v|
  wm, wmin, wmax = med.(v.map(&:first)); cm, = med.(v.map(&:last))
  printf "%-15s %8.1f ms [%.1f-%.1f]  cpu %7.1f ms\n", w, wm * 1000, wmin * 1000, wmax * 1000, cm * 1000
end
wr = med.(res[:fork_per_batch].map(&:first))[0] / med.(res[:process].map(&:first))[0]
cr = med.(res[:fork_per_batch].map(&:last))[0] / med.(res[:process].map(&:last))[0]
printf "ratio (fork per batch / heddle process): wall %.1fx, cpu %.1fx; load %s -> %s; %s\n", wr, cr, load0, File.read("/proc/loadavg").split[0, 3].join(" "), RUBY_DESCRIPTION
