# Hand-off primitives in the article's job: 10 waiter threads, 1 resolver.
$LOAD_PATH.unshift File.expand_path("../../../lib/heddle", __dir__)
require "heddle"
N = Integer(ENV.fetch("N", "50000"))
T = Integer(ENV.fetch("T", "3"))
W = 10
STOP = Object.new

class QueueP
  def initialize = @q = Thread::Queue.new
  def value = @q.pop
  def fulfill(v) = @q.push(v)
  def reset = nil
end

# Per-thread queue parker, promise with waiter slot; lock-free under GVL (sketch)
class ParkQ
  def initialize; @done = false; @w = nil; end
  def value
    return @v if @done
    q = (Thread.current[:pq] ||= Thread::Queue.new)
    @w = q
    q.pop until @done
    @v
  end
  def fulfill(v); @v = v; @done = true; w = @w and w.push(true); end
  def reset; @done = false; @w = nil; end
end

# Thread.stop / wakeup with a permit
class StopP
  def initialize; @done = false; @w = nil; end
  def value
    return @v if @done
    @w = Thread.current
    Thread.stop until @done
    @v
  end
  def fulfill(v); @v = v; @done = true; w = @w and w.wakeup; end
  def reset; @done = false; @w = nil; end
end

class SleepP < StopP
  def value
    return @v if @done
    @w = Thread.current
    sleep until @done
    @v
  end
end

class RunP < StopP
  def fulfill(v); @v = v; @done = true; w = @w and w.run; end
end

# pass-spin then queue park
class SpinQ < ParkQ
  SPIN = Integer(ENV.fetch("SPIN", "1"))
  def value
    i = 0
    while !@done && i < SPIN
      Thread.pass
      i += 1
    end
    super
  end
end

class MCV
  def initialize; @m = Thread::Mutex.new; @c = Thread::ConditionVariable.new; @done = false; end
  def value; @m.synchronize { @c.wait(@m) until @done; @v }; end
  def fulfill(v); @m.synchronize { @v = v; @done = true }; @c.signal; end
  def reset = @m.synchronize { @done = false }
end

def job(n, reuse, &make)
  jobs = Thread::Queue.new
  gate = Thread::Queue.new
  per = n / W
  res = Thread.new { until (p = jobs.pop).equal?(STOP) do p.fulfill(true) end }
  ws = Array.new(W) do
    Thread.new do
      gate.pop
      pr = make.call if reuse
      per.times do
        reuse ? pr.reset : pr = make.call
        jobs << pr
        raise "bad" unless pr.value.equal?(true)
      end
    end
  end
  Thread.pass until ws.all? { |t| t.status == "sleep" }
  GC.start; GC.disable
  c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  W.times { gate << true }
  ws.each { |t| t.join(60) or abort("hang") }
  t = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
  c = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c0
  jobs << STOP; res.join
  GC.enable
  [t, c]
end

CASES = {
  "Queue fresh" => [false, -> { QueueP.new }],
  "Queue reuse" => [true, -> { QueueP.new }],
  "MCV reuse" => [true, -> { MCV.new }],
  "Heddle fresh" => [false, -> { Heddle::Promise.new }],
  "Heddle reuse" => [true, -> { Heddle::Promise.new }],
  "ParkQ fresh" => [false, -> { ParkQ.new }],
  "Stop fresh" => [false, -> { StopP.new }],
  "Sleep fresh" => [false, -> { SleepP.new }],
  "Run fresh" => [false, -> { RunP.new }],
  "SpinQ fresh" => [false, -> { SpinQ.new }],
}
only = ENV["ONLY"]&.split(",")
cases = only ? CASES.select { |k, _| only.any? { |o| k.include?(o) } } : CASES
res = Hash.new { |h, k| h[k] = [] }
T.times do
  cases.to_a.shuffle.each { |name, (reuse, make)| res[name] << job(N, reuse, &make) }
end
base = res["Queue fresh"].map(&:first).sort[T / 2] if res.key?("Queue fresh")
res.each do |name, r|
  w = r.map(&:first).sort; c = r.map(&:last).sort
  puts "#{name}: #{r.map { |x| x.first.round(2) }.inspect}" if ENV["ALL"]
  printf("%-14s wall %.3f [%.3f-%.3f]  cpu %.3f  %s\n", name, w[T / 2], w.first, w.last, c[T / 2],
         base ? format("%.2fx Queue", w[T / 2] / base) : "")
end
