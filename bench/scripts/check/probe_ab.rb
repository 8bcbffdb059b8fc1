# In-process A/B of the check runner's probe: serial (orig), one slice per worker (par), none;
# cpu_bound (tarai(9, 4, 0), 100 runs) on 2 ractors, and inline, interleaved in random order.
# usage: bundle exec ruby bench/scripts/check/probe_ab.rb
# Historical: it patches the pooled runner as of commit cff99ea (run_chunks, chunk_size(count)); run it on a
# checkout of that commit. bench/scripts/check/window_ab.rb measures the runners that replaced it.
require "heddle"
require "heddle/check"
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
module T
  def self.tarai(x, y, z) = x <= y ? y : tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y))
end
R = Heddle::Check::Runners::Pool
R.class_eval do
  public
  # (the shipped code now slices the probe, so "orig" is rebuilt here as the serial probe)
  def orig_first_failure(cases, deadline)
    unless @probed || cases.size <= R::PROBE
      @probed = true
      failure = run_chunks([cases.first(R::PROBE)], deadline)
      return failure if failure
      cases = cases.drop(R::PROBE)
    end
    run_chunks(cases.each_slice(chunk_size(cases.size)).to_a, deadline)
  end
  def par_first_failure(cases, deadline)
    unless @probed || cases.size <= R::PROBE
      @probed = true
      failure = run_chunks(cases.first(R::PROBE).each_slice((R::PROBE.to_f / @size).ceil).to_a, deadline)
      return failure if failure
      cases = cases.drop(R::PROBE)
    end
    run_chunks(cases.each_slice(chunk_size(cases.size)).to_a, deadline)
  end
  def noprobe_first_failure(cases, deadline) = run_chunks(cases.each_slice(chunk_size(cases.size)).to_a, deadline)
end
prop = Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) { |x, y, z| T.tarai(x, y, z) }
res = Hash.new { |h, k| h[k] = [] }
Heddle::Check.assert(prop, worker: :ractor, runs: 100)
8.times do
  %i[orig par noprobe].shuffle.each do |v|
    R.send(:alias_method, :first_failure, :"#{v}_first_failure")
    a = now; Heddle::Check.assert(prop, worker: :ractor, runs: 100); res[v] << (now - a) * 1e3
  end
  a = now; Heddle::Check.assert(prop, worker: :inline, runs: 100); res[:inline] << (now - a) * 1e3
end
res.each { |k, v| s = v.sort; printf("%-8s median %.1f ms [%.1f–%.1f]\n", k, s[s.size / 2], s.first, s.last) }
