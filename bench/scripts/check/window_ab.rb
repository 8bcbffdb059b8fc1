# In-process A/B of the check runner's dispatch, with pbt 0.7's ractor worker and heddle inline, interleaved in
# random order: "old" (a Heddle::Pool, probe, then equal chunks awaited in index order: the code before the
# Window), "pool" (a Heddle::Pool with the Window: chunks taken back as they finish, shrinking chunks),
# "chunks" (RactorChunks, what worker: :ractor ran when this A/B was written: a ractor per chunk of
# MIN_CHUNK_SECONDS of runs, taken back as they finish; ractor_chunks.rb), "spread" (RactorChunks with the pool
# runner's shrinking shares, its first version), "wide" (RactorChunks with 4 ractors alive per worker instead
# of 2) and "ractors" (what worker: :ractor runs now, Runners.for's choice: a ractor per worker for the check).
# Of the ractor-per-chunk variants only "chunks" was shipped.
# VARIANTS=old,chunks,pbt,inline picks the variants to run.
# One of the `checks` suite's cases (CASE=cpu_bound, the default; simple, io_bound, failure_simple), 2 workers
# (WORKER=ractor, the default, or process). Wall and CPU (this process only), minor page faults and GCs per check.
# usage: bundle exec ruby bench/scripts/check/window_ab.rb [trials]
require "heddle"
require "heddle/check"
require "heddle/bench"
require "pbt"
require_relative "ractor_chunks" # the ractor-per-chunk runner these variants derive from
load File.expand_path("../../../lib/heddle-bench/heddle/bench/suites/checks.rb", __dir__)
S = Heddle::Bench::ChecksSuite
S.write_text
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
def faults = File.read("/proc/self/stat").split[9].to_i # minor page faults of this process
Warning[:experimental] = false

# The runner before this change, rebuilt as a subclass: its own chunking (the pool's workers come from Pool),
# with Runners::Chunking's tuning.
class OldPool < Heddle::Check::Runners::Pool
  IN_FLIGHT = Heddle::Check::Runners::Chunking::IN_FLIGHT
  MIN_CHUNK_SECONDS = Heddle::Check::Runners::Chunking::MIN_CHUNK_SECONDS
  PROBE = Heddle::Check::Runners::Chunking::PROBE

  def initialize(property, worker:, size:)
    super
    @size = size
    @limit = size * IN_FLIGHT
    @per_run = nil # seconds of a typical run, as the latest chunk reported
  end

  def first_failure(cases, deadline)
    unless @probed || cases.size <= PROBE
      @probed = true
      failure = run_chunks(cases.first(PROBE).each_slice((PROBE.to_f / @size).ceil).to_a, deadline)
      return failure if failure

      cases = cases.drop(PROBE)
    end
    run_chunks(cases.each_slice(old_chunk_size(cases.size)).to_a, deadline)
  end

  private

  def run_chunks(chunks, _deadline)
    generation = @token ? @token[0] : 0
    in_flight = []
    until chunks.empty? && in_flight.empty?
      in_flight << @pool.submit([generation, chunks.shift]) while in_flight.size < @limit && chunks.any?
      failure, per_run = in_flight.shift.value!
      learn(per_run)
      return cancel(failure) if failure
    end
    nil
  end

  def old_chunk_size(count)
    even = (count.to_f / @limit).ceil
    return even unless @per_run

    [even, (MIN_CHUNK_SECONDS / [@per_run, Float::EPSILON].max).ceil].max
  end

  def learn(per_run)
    @per_run = per_run if per_run
  end
end
# RactorChunks with 4 ractors alive per worker instead of 2 (IN_FLIGHT): more runnable threads, a larger share
# of a loaded machine's CPU (Pbt starts all 100 at once).
class WideChunks < Heddle::Check::Runners::RactorChunks
  def initialize(...)
    super
    @limit = @size * 4
  end
end
# RactorChunks cutting chunks as the pool runner does (a share of what is left, SPREAD per worker), as it did
# in its first version, instead of MIN_CHUNK_SECONDS of runs each.
class SpreadChunks < Heddle::Check::Runners::RactorChunks
  private

  def share_of(left) = (left.to_f / (@size * SPREAD)).ceil
end
$variant = :chunks
Heddle::Check::Runners.singleton_class.prepend(Module.new do
  def for(property, options)
    return super unless %i[ractor process].include?(options.worker)
    return OldPool.new(property, worker: options.worker, size: options.size) if $variant == :old
    return Heddle::Check::Runners::Pool.new(property, worker: options.worker, size: options.size) if $variant == :pool
    if $variant == :chunks && options.worker == :ractor
      return Heddle::Check::Runners::RactorChunks.new(property, size: options.size)
    end
    return WideChunks.new(property, size: options.size) if $variant == :wide && options.worker == :ractor
    return SpreadChunks.new(property, size: options.size) if $variant == :spread && options.worker == :ractor

    super
  end
end)

kase = ENV.fetch("CASE", "cpu_bound")
worker = ENV.fetch("WORKER", "ractor").to_sym
HEDDLE_PROPS = {
  "simple" => -> { Heddle::Check.property(Heddle::Check.integer) { |x| Heddle::Bench::ChecksSuite.simple(x) } },
  "cpu_bound" => lambda {
    Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) }
  },
  "io_bound" => -> { Heddle::Check.property(Heddle::Check.ascii_string) { |s| Heddle::Bench::ChecksSuite.io_bound(s) } },
  "failure_simple" => -> { Heddle::Check.property(Heddle::Check.integer) { |x| Heddle::Bench::ChecksSuite.failure(x) } }
}.freeze
PBT_PROPS = {
  "simple" => -> { Pbt.property(Pbt.integer) { |x| Heddle::Bench::ChecksSuite.simple(x) } },
  "cpu_bound" => -> { Pbt.property(Pbt.constant([9, 4, 0])) { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) } },
  "io_bound" => -> { Pbt.property(Pbt.ascii_string) { |s| Heddle::Bench::ChecksSuite.io_bound(s) } },
  "failure_simple" => -> { Pbt.property(Pbt.integer) { |x| Heddle::Bench::ChecksSuite.failure(x) } }
}.freeze
heddle_check = lambda do |on|
  Heddle::Check.assert(HEDDLE_PROPS.fetch(kase).call, worker: on, seed: S::SEED)
rescue Heddle::Check::Failure => e
  raise unless kase == "failure_simple" && e.result.counterexample == 101
end
RUNS = {
  old: -> { $variant = :old; heddle_check.call(worker) },
  pool: -> { $variant = :pool; heddle_check.call(worker) },
  chunks: -> { $variant = :chunks; heddle_check.call(worker) },
  ractors: -> { $variant = :ractors; heddle_check.call(worker) },
  wide: -> { $variant = :wide; heddle_check.call(worker) },
  spread: -> { $variant = :spread; heddle_check.call(worker) },
  inline: -> { heddle_check.call(:inline) },
  pbt: lambda do
    Pbt.assert(worker: :ractor, seed: S::SEED, num_runs: 100) { PBT_PROPS.fetch(kase).call }
  rescue Pbt::PropertyFailure
    raise unless kase == "failure_simple"
  end
}
trials = (ARGV[0] || 9).to_i
RUNS.select! { |name, _| ENV["VARIANTS"].split(",").include?(name.to_s) } if ENV["VARIANTS"]
RUNS.each_value(&:call)
load0 = File.read("/proc/loadavg").split.first(3).join(" ")
res = Hash.new { |h, k| h[k] = [] }
trials.times do
  RUNS.keys.shuffle.each do |n|
    t = now
    c = cpu
    f = faults
    g = GC.count
    RUNS[n].call
    res[n] << [(now - t) * 1e3, (cpu - c) * 1e3, faults - f, GC.count - g]
    Heddle::Workers::Processes::Backend.drain_reaper if worker == :process
  end
end
med = ->(v) { s = v.sort; format("%.1f [%.1f–%.1f]", s[s.size / 2], s.first, s.last) }
printf("%s on %s, %d trials, load %s -> %s\n", kase, worker, trials, load0,
       File.read("/proc/loadavg").split.first(3).join(" "))
res.each do |n, v|
  printf("%-7s wall %s ms  cpu %s ms (process only)  faults %s  GCs %s\n", n, med.(v.map { _1[0] }),
         med.(v.map { _1[1] }), med.(v.map { _1[2] }), med.(v.map { _1[3] }))
end
wall = res.transform_values { |v| v.map(&:first).sort[v.size / 2] }
(%i[old pool chunks spread wide ractors] & wall.keys).each do |v|
  printf("%-7s inline/%s %.2fx  pbt/%s %.2fx\n", v, v, wall[:inline] / wall[v], v, wall[:pbt] / wall[v])
end
