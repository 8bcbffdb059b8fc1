# frozen_string_literal: true
# Per-message costs on the lockstep path of a fiber pool, and what CRuby allows.
require "heddle"
N = Integer(ENV.fetch("N", "20000"))

def cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
def wall = Process.clock_gettime(Process::CLOCK_MONOTONIC)

def measure(label, n = N)
  GC.start
  a0 = GC.stat(:total_allocated_objects)
  w = wall; c = cpu
  yield n
  w = wall - w; c = cpu - c
  a = GC.stat(:total_allocated_objects) - a0
  printf("%-55s %8.2f us wall %8.2f us cpu %6.1f allocs/msg\n", label, w * 1e6 / n, c * 1e6 / n, a.to_f / n)
end

# 1. a bare Fiber#resume round trip
f = Fiber.new { |x| loop { x = Fiber.yield(x == "STATUS" ? "OK" : "?") } }
measure("bare Fiber#resume/yield round trip") { |n| n.times { f.resume("STATUS") } }

# 2. Queue push+pop in one thread (no waiting)
q = Thread::Queue.new
measure("Queue push+pop, same fiber") { |n| n.times { q << 1; q.pop } }

# 3. Queue ping-pong between two threads
qa = Thread::Queue.new; qb = Thread::Queue.new
t = Thread.new { while (m = qa.pop) ; qb << (m == "STATUS" ? "OK" : "?"); end }
measure("Queue ping-pong between two threads") { |n| n.times { qa << "STATUS"; qb.pop } }
qa.close; t.join

# 4. Under Heddle.run: Queue ping-pong between two fibers (scheduler block/unblock)
Heddle.run do
  qa = Thread::Queue.new; qb = Thread::Queue.new
  Fiber.schedule { while (m = qa.pop) ; qb << (m == "STATUS" ? "OK" : "?"); end }
  measure("Heddle.run: Queue ping-pong between two fibers") { |n| n.times { qa << "STATUS"; qb.pop } }
  qa.close
end

# 5. Under Heddle.run: resume!/await_resume! ping-pong (the core's contract)
Heddle.run do
  box = []
  worker = nil
  w = Heddle.concurrently do
    worker = Heddle::Evaluation.current
    while (m = Heddle.await_resume!)
      caller_ev = box.pop
      caller_ev.resume!(m == "STATUS" ? "OK" : "?")
    end
  end
  Heddle.wait(0)
  measure("Heddle.run: resume!/await_resume! ping-pong") do |n|
    me = Heddle::Evaluation.current
    n.times { box << me; worker.resume!("STATUS"); Heddle.await_resume! }
  end
  worker.resume!(nil)
  w.await_result
end

# 6. heddle fiber pool ask, inside Heddle.run (the messages suite's lockstep row)
[5, 1000].each do |size|
  Heddle.run do
    pool = Heddle::Pool.new(worker: :fiber, size: size) { |m| m == "STATUS" ? "OK" : "?" }
    pool.ask("STATUS")
    measure("Heddle.run: fiber pool(#{size}).ask") { |n| n.times { pool.ask("STATUS") } }
    pool.shutdown
  end
end
# 7. fiber pool ask from outside (own thread), thread pool ask
pool = Heddle::Pool.new(worker: :fiber, size: 5) { |m| m == "STATUS" ? "OK" : "?" }
measure("fiber pool(5).ask from another thread", N / 10) { |n| n.times { pool.ask("STATUS") } }
pool.shutdown
pool = Heddle::Pool.new(worker: :thread, size: 5) { |m| m == "STATUS" ? "OK" : "?" }
measure("thread pool(5).ask", N / 10) { |n| n.times { pool.ask("STATUS") } }
pool.shutdown
# 8. the seed's fibers, blocking read (pipes): one lockstep round trip
qr, qw = IO.pipe; rr, rw = IO.pipe
sf = Fiber.new { |n| loop { n.times { rw.write("OK") if qr.read(6) }; n = Fiber.yield } }
measure("seed: fibers, blocking read, pipe round trip") { |n| n.times { qw.write("STATUS"); sf.resume(1); rr.read(2) } }
