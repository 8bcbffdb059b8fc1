# Where a cpu_bound check on worker: :ractor (tarai(9, 4, 0), 100 runs) loses time: each
# worker ractor's idle time before and between its chunks (from the check's start), and
# its tail (from its last chunk's end to the check's end). Each chunk's handler is wrapped
# to report when it ran; the driver is Ractors' own, with the timing kept aside.
# usage: bundle exec ruby bench/scripts/check/ractor_timeline.rb [checks]
require "heddle"
require "heddle/check"
Warning[:experimental] = false
module T; def self.tarai(x, y, z) = x <= y ? y : tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y)); end
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
R = Heddle::Check::Runners
$log = []
# The handler's [failure, per_run] plus [started, ended, ractor] of the chunk.
module Timed
  def self.wrap(handler)
    Ractor.make_shareable(lambda do |arg|
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      failure, per_run = handler.call(arg)
      [failure, per_run, [started, Process.clock_gettime(Process::CLOCK_MONOTONIC), Ractor.current.object_id]]
    end)
  end
end
R::Ractors.prepend(Module.new do
  def initialize(...)
    super
    @handler = Timed.wrap(@handler) # the workers started by super get the plain handler: replace them
    @outstanding.each_key(&:close_incoming)
    @outstanding = {}
    @size.times { @outstanding[start_worker] = 0 }
  end

  # Ractors#take_back, keeping each chunk's timing aside.
  def take_back(window)
    loop do
      _tag, id, serial, result = Ractor.receive_if { |m| m.is_a?(Array) && m[0] == R::Ractors::TAG }
      next unless id == object_id

      number, worker = @open.delete(serial)
      next unless number

      $log << result[2]
      @outstanding[worker] -= 1
      window.close
      learn(result[1])
      return [number, result[0]]
    end
  end
end)
PROP = Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) { |x, y, z| T.tarai(x, y, z) }
Heddle::Check.assert(PROP, worker: :ractor, runs: 100)
(ARGV[0] || 7).to_i.times do
  $log.clear
  GC.start
  t0 = now
  Heddle::Check.assert(PROP, worker: :ractor, runs: 100)
  t1 = now
  idle = Hash.new(0.0)
  last = {}
  $log.sort_by(&:first).each do |a, b, w|
    idle[w] += a - (last[w] || t0)
    last[w] = b
  end
  printf("wall %.1f ms  idle before/between chunks %s ms, tail %s ms\n", (t1 - t0) * 1e3,
         idle.values.map { (_1 * 1e3).round(1) }, last.values.map { ((t1 - _1) * 1e3).round(1) })
end
