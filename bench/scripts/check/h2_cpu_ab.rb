# A/B: cpu_bound, heddle inline vs pbt none vs bare loop, interleaved in random order, one process.
require "heddle"
require "heddle/check"
require "heddle/bench"
require "pbt"
load File.expand_path("../../../lib/heddle-bench/heddle/bench/suites/checks.rb", __dir__)
S = Heddle::Bench::ChecksSuite
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
V = {
  "heddle" => -> {
    prop = Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) }
    Heddle::Check.assert(prop, worker: :inline, runs: 100)
  },
  "pbt" => -> {
    Pbt.assert(worker: :none, num_runs: 100) do
      Pbt.property(Pbt.constant([9, 4, 0])) { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) }
    end
  },
  "bare" => -> {
    pr = proc { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) }
    a = [9, 4, 0]
    100.times { pr.call(a) }
  }
}
names = (ENV["VARIANTS"] || V.keys.join(",")).split(",")
trials = Integer(ARGV[0] || 15)
res = Hash.new { |h, k| h[k] = [] }
names.each { |n| V[n].call }
one = lambda do |n|
  GC.start
  c0 = cpu; t0 = now
  V[n].call
  [now - t0, cpu - c0]
end
(names * trials).shuffle(random: Random.new(1)).each do |n|
  if ENV["MODE"] == "fork"
    r, w = IO.pipe
    pid = fork { r.close; V[n].call; w.write(Marshal.dump(one.(n))); w.close; exit!(0) }
    w.close; res[n] << Marshal.load(r.read); r.close; Process.wait(pid)
  else
    res[n] << one.(n)
  end
end
med = ->(a) { s = a.sort; s[s.size / 2] }
names.each do |n|
  w = res[n].map(&:first); c = res[n].map(&:last)
  printf("%-6s wall %.1f ms [%.1f-%.1f] cpu %.1f ms [%.1f-%.1f]\n", n, med[w]*1e3, w.min*1e3, w.max*1e3, med[c]*1e3, c.min*1e3, c.max*1e3)
end
