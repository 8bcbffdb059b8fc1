# usage: bundle exec ruby bench/scripts/core/core_bench.rb heddle|concurrently
lib = ARGV[0]
if lib == "heddle"
  $LOAD_PATH.unshift ENV["LIB"] || ENV["LIB"] || File.expand_path("../../../lib/heddle", __dir__)
  require "heddle/procs"
  def cproc(&b) = Heddle.concurrent_proc(&b)
  def wait(s) = Heddle.wait(s)
  class IO
    def await_readable = Heddle.await_readable(self)
    def await_writable = Heddle.await_writable(self)
  end
else
  require "concurrently"
  def cproc(&b) = Concurrently::Proc.new(&b)
end
GC.disable
def measure(name, secs = 0.3)
  batch = Array.new(100)
  yield batch # warmup
  best = []
  3.times do
    n = 0
    t0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    while (el = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - t0) < secs
      yield batch; n += 100
    end
    best << n / el
    GC.start; GC.disable
  end
  puts format("%-28s %10.0f", name, best.sort[1])
end
pr = cproc {}
measure("conproc.call") { |b| b.each { pr.call } }
measure("call_nonblock") { |b| b.each { pr.call_nonblock } }
measure("call_detached") { |b| b.each { pr.call_detached }; wait 0 }
measure("call_and_forget") { |b| b.each { pr.call_and_forget }; wait 0 }
measure("call_detached+await") { |b| b.map { pr.call_detached }.each(&:await_result) }
w = cproc { wait 0 }
measure("waiting call") { |b| b.each { w.call } }
measure("waiting call_nonblock") { |b| b.map { w.call_nonblock }.each(&:await_result) }
measure("waiting call_detached") { |b| b.map { w.call_detached }.each(&:await_result) }
measure("waiting call_and_forget") { |b| b.each { w.call_and_forget }; wait 0 }
tp = proc { wait 0 }
measure("wait 0") { |b| b.each { tp.call } }
pipes = Array.new(100) { IO.pipe.tap { |r, w| w.write "0" } }
measure("await_readable") { |_| pipes.each { |r, _| r.await_readable } }
pipes2 = Array.new(100) { IO.pipe }
measure("await_writable") { |_| pipes2.each { |_, w| w.await_writable } }
