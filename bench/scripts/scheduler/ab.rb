# in-process A/B of the pipe round trip: select vs nio4r vs epoll backends (+ hooks off) vs async, interleaved;
# ONLY=epoll,nio4r,async picks configurations
require "bundler/setup"
require "heddle"
require "async"
n = Integer(ARGV[0] || 10000)
trials = Integer(ARGV[1] || 5)
W = Heddle::EventLoop::IOWatch
S = Heddle::EventLoop::Selectors
def job(n)
  there_r, there_w = IO.pipe; back_r, back_w = IO.pipe
  a = proc { n.times { there_w.write("x"); back_r.read(1) } }
  b = proc { n.times { back_w.write(there_r.read(1)) } }
  [a, b, [there_r, there_w, back_r, back_w]]
end
configs = {
  "select" => [S::SelectWatch, true], "nio4r" => [S::NIOWatch, true], "epoll" => [S::EpollWatch, true],
  "select nohooks" => [S::SelectWatch, false], "nio4r nohooks" => [S::NIOWatch, false],
  "epoll nohooks" => [S::EpollWatch, false], "async" => [nil, nil]
}
configs = configs.select { |k, _| ENV["ONLY"].nil? || ENV["ONLY"].split(",").include?(k) }
res = Hash.new { |h, k| h[k] = [] }
GC.disable if ENV["NOGC"]
trials.times do
  configs.to_a.shuffle.each do |name, (backend, hooks)|
    a, b, ios = job(n)
    W.backend = backend if backend
    c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID); t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    if backend
      Thread.new do
        Fiber.set_scheduler(Heddle::Scheduler.new(io_hooks: hooks))
        Heddle.run { [Heddle.concurrently(&a), Heddle.concurrently(&b)].each(&:await_result) }
      ensure
        Fiber.set_scheduler(nil)
      end.join
    else
      Thread.new { Async { |t| [t.async(&a), t.async(&b)].each(&:wait) } }.join
    end
    res[name] << [(Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0) / n * 1e6, (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c0) / n * 1e6]
    ios.each(&:close)
  end
end
med = ->(a) { s = a.sort; s[s.size / 2] }
ac = med.(res["async"].map(&:last)) if res.key?("async")
res.each do |name, r|
  c = med.(r.map(&:last))
  printf("%-16s wall %6.2f cpu %6.2f [%6.2f-%6.2f] us/turn%s\n", name, med.(r.map(&:first)), c, r.map(&:last).min, r.map(&:last).max, ac ? format("  cpu vs async %.2fx", ac / c) : "")
end
