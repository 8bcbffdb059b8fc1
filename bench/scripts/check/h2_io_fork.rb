# io_bound rows, harness-like: each trial = (optional untimed warm check) + GC.start + timed check.
# MODE=shared: all trials in this process (rows interleaved, as the suite's shared children);
# MODE=fork: each trial in a process forked from this one (which ran nothing), as isolate: :trial.
require "loom"
require "loom/check"
require "loom/bench"
require "pbt"
load File.expand_path("../../../lib/loom/bench/suites/checks.rb", __dir__)
Warning[:experimental] = false
S = Loom::Bench::ChecksSuite
S.write_text
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def faults = File.read("/proc/self/stat").split[9].to_i
io_loom = ->(w) {
  prop = Loom::Check.property(Loom::Check.ascii_string) { |str| Loom::Bench::ChecksSuite.io_bound(str) }
  Loom::Check.assert(prop, worker: w, seed: S::SEED)
}
io_pbt = ->(w) {
  Pbt.assert(worker: w, seed: S::SEED, num_runs: 100) do
    Pbt.property(Pbt.ascii_string) { |str| Loom::Bench::ChecksSuite.io_bound(str) }
  end
}
V = {
  "loom inline" => -> { io_loom.(:inline) }, "loom ractor" => -> { io_loom.(:ractor) },
  "loom fiber" => -> { io_loom.(:fiber) }, "loom thread" => -> { io_loom.(:thread) }, "loom process" => -> { io_loom.(:process) },
  "pbt none" => -> { io_pbt.(:none) }, "pbt ractor" => -> { io_pbt.(:ractor) }
}
names = (ENV["VARIANTS"] || "loom inline,pbt none,loom ractor,pbt ractor").split(",")
mode = ENV["MODE"] || "fork"
trials = Integer(ARGV[0] || 7)
warm = {}
one = lambda do |n, warm_pass|
  V[n].call if warm_pass
  GC.start
  g = GC.stat; f = faults; t = now
  V[n].call
  d = now - t; g2 = GC.stat
  [d * 1e3, faults - f, g2[:count] - g[:count]]
end
res = Hash.new { |h, k| h[k] = [] }
(names * trials).shuffle(random: Random.new(Integer(ENV["SEED"] || 1))).each do |n|
  if mode == "fork"
    r, w = IO.pipe
    pid = fork { r.close; w.write(Marshal.dump(one.(n, true))); w.close; exit!(0) }
    w.close; out = Marshal.load(r.read); r.close; Process.wait(pid)
  else
    out = one.(n, !warm[n]); warm[n] = true
  end
  res[n] << out
end
med = ->(a) { s = a.sort; s[s.size / 2] }
res.sort.each do |n, rs|
  f = rs.map { _1[1] }
  printf("%-12s wall %6.1f ms [%.1f-%.1f] faults %5d [%d-%d] gcs %s faults %s\n", n, med[rs.map(&:first)], rs.map(&:first).min, rs.map(&:first).max,
         med[f], f.min, f.max, rs.map { _1[2] }.inspect, f.inspect)
end
