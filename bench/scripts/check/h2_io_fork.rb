# io_bound rows, harness-like: each trial = (optional untimed warm check) + GC.start + timed check.
# MODE=shared: all trials in this process (rows interleaved, as the suite's shared children);
# MODE=fork: each trial in a process forked from this one (which ran nothing), as isolate: :trial.
require "heddle"
require "heddle/check"
require "heddle/bench"
require "pbt"
load File.expand_path("../../../lib/heddle-bench/heddle/bench/suites/checks.rb", __dir__)
Warning[:experimental] = false
S = Heddle::Bench::ChecksSuite
S.write_text
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def faults = File.read("/proc/self/stat").split[9].to_i
io_heddle = ->(w) {
  prop = Heddle::Check.property(Heddle::Check.ascii_string) { |str| Heddle::Bench::ChecksSuite.io_bound(str) }
  Heddle::Check.assert(prop, worker: w, seed: S::SEED)
}
io_pbt = ->(w) {
  Pbt.assert(worker: w, seed: S::SEED, num_runs: 100) do
    Pbt.property(Pbt.ascii_string) { |str| Heddle::Bench::ChecksSuite.io_bound(str) }
  end
}
V = {
  "heddle inline" => -> { io_heddle.(:inline) }, "heddle ractor" => -> { io_heddle.(:ractor) },
  "heddle fiber" => -> { io_heddle.(:fiber) }, "heddle thread" => -> { io_heddle.(:thread) }, "heddle process" => -> { io_heddle.(:process) },
  "pbt none" => -> { io_pbt.(:none) }, "pbt ractor" => -> { io_pbt.(:ractor) }
}
names = (ENV["VARIANTS"] || "heddle inline,pbt none,heddle ractor,pbt ractor").split(",")
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
