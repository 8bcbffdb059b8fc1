# quick A/B: "heddle fibers over pipes" (lockstep and pipelined) on each IOWatch back end vs plain fibers, in one process
require "bundler/setup"
require "heddle"
TOTAL = Integer(ENV.fetch("TOTAL", "20000"))
Ns = ENV.fetch("NS", "5,1000").split(",").map(&:to_i)
S = Heddle::EventLoop::Selectors
def pipes(n) = Array.new(n) { IO.pipe + IO.pipe }
def shares(total, w) = Array.new(w) { |i| (total / w) + (i < total % w ? 1 : 0) }
def lockstep(writers, readers, total)
  c = writers.size
  total.times { |m| writers[m % c].write("STATUS"); readers[m % c].read(2) }
end
def pipelined(writers, readers, total)
  shares(total, writers.size).each_with_index do |n, i|
    until n.zero?
      r = [n, 1000].min
      r.times { writers[i].write("STATUS") }
      readers[i].read(r * 2)
      n -= r
    end
  end
end
def heddle_run(n, mode, backend)
  Heddle::EventLoop::IOWatch.backend = backend
  ends = pipes(n)
  t = nil
  Thread.new do
    Heddle.run do
      ends.each { |(q, _, _, rep)| Fiber.schedule { rep.write("OK") while q.read(6) } }
      c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
      send(mode, ends.map { _1[1] }, ends.map { _1[2] }, TOTAL)
      t = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c0
      ends.each { _1[1].close }
    end
  end.join
  ends.flatten.each { _1.close unless _1.closed? }
  t
end
def plain_fibers(n, mode)
  ends = pipes(n)
  fibers = ends.map { |(q, _, _, rep)| Fiber.new { |k| loop { k.times { rep.write("OK") if q.read(6) }; k = Fiber.yield } } }
  window = mode == :lockstep ? 1 : 1000
  left = shares(TOTAL, n)
  c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  until left.sum.zero?
    fibers.each_with_index do |f, i|
      k = [left[i], window].min
      next if k.zero?
      k.times { ends[i][1].write("STATUS") }
      f.resume(k)
      ends[i][2].read(k * 2)
      left[i] -= k
    end
  end
  t = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c0
  ends.flatten.each(&:close)
  t
end
Ns.each do |n|
  %i[lockstep pipelined].each do |mode|
    r = Hash.new { |h, k| h[k] = [] }
    3.times do
      r["select"] << heddle_run(n, mode, S::SelectWatch)
      r["nio4r"] << heddle_run(n, mode, S::NIOWatch)
      r["plain"] << plain_fibers(n, mode)
    end
    med = r.transform_values { |v| v.sort[1] }
    printf("N=%-5d %-9s cpu s: select %.3f nio4r %.3f plain fibers %.3f | nio/plain %.2fx select/plain %.2fx\n", n, mode, med["select"], med["nio4r"], med["plain"], med["nio4r"] / med["plain"], med["select"] / med["plain"])
  end
end
