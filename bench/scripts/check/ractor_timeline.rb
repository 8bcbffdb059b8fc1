# Where a cpu_bound check on worker: :ractor (tarai(9, 4, 0), 100 runs) loses time: each
# worker ractor's idle time before and between its chunks (from the check's start), and
# its tail (from its last chunk's end to the check's end). Each chunk's handler is wrapped
# to report when it ran; the driver is Ractors' own, with the timing kept aside as it takes
# each result from its box.
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
# Remembers the message last taken from the driver's box: the result Ractors#take_back accepted when it returns.
module LastTaken
  attr_reader :last

  def pop(...) = (@last = super)
end
R::Ractors.prepend(Module.new do
  private

  # The workers start with the wrapped handler.
  def open_box
    @handler = Timed.wrap(@handler)
    super
    @box.extend(LastTaken)
  end

  # Ractors#take_back, keeping the chunk's timing aside.
  def take_back(window)
    taken = super
    $log << @box.last[3][2]
    taken
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
