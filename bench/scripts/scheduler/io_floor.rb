# The floor of a 1-byte pipe round trip between two fibers on one thread (issue 26), beside async and
# heddle doing the same job, CPU microseconds per round trip, median [min-max]:
# - "syscalls only": two write(2), two read(2), two waits in the kernel (IO.select: one ppoll each);
# - "contract's calls": those plus the read each side makes before it waits, which Ruby's io_read
#   documentation asks of a scheduler ("try reading at least once"): 8 system calls, no fibers;
# - "+ fibers, loop": two fibers and a loop fiber doing those 8 calls by hand, no Fiber::Scheduler.
#   bundle exec ruby [--yjit] bench/scripts/scheduler/io_floor.rb [n] [trials]
require "bundler/setup"
require "heddle"
require "async"
Warning[:experimental] = false
n = Integer(ARGV[0] || 5_000)
trials = Integer(ARGV[1] || 15)

def job(n)
  there_r, there_w = IO.pipe
  back_r, back_w = IO.pipe
  [there_r, there_w, back_r, back_w]
end

# Two fibers and a loop fiber: a fiber that would block names its IO and transfers to the loop,
# which waits (IO.select: ppoll, one system call) and transfers to the fiber whose IO is ready.
def floor(n, ios)
  there_r, there_w, back_r, back_w = ios
  main = Fiber.current
  waiting = {}
  reader = lambda do |io|
    loop do
      s = io.read_nonblock(1, exception: false)
      return s unless s == :wait_readable
      waiting[io] = Fiber.current
      main.transfer
    end
  end
  a = Fiber.new { n.times { there_w.syswrite("x"); reader.(back_r) == "x" or raise "lost" }; waiting[:done] = true; main.transfer }
  b = Fiber.new { loop { back_w.syswrite(reader.(there_r)) } }
  b.transfer
  a.transfer
  until waiting[:done]
    ready, = IO.select(waiting.keys)
    ready.each { |io| waiting.delete(io).transfer }
  end
end

def tight(n, ios)
  # the same syscalls and switches, no fairness or bookkeeping: the bare floor
  there_r, there_w, back_r, back_w = ios
  set1 = [there_r]; set2 = [back_r]
  n.times do
    there_w.syswrite("x")
    IO.select(set1); back_w.syswrite(there_r.sysread(1))
    IO.select(set2); back_r.sysread(1)
  end
end

def contract(n, ios)
  # the system calls Ruby's io_read contract asks of any scheduler ("try reading at least once",
  # then wait): each side's next read finds the pipe empty before it waits; no fibers
  there_r, there_w, back_r, back_w = ios
  set1 = [there_r]; set2 = [back_r]
  n.times do
    there_w.syswrite("x")
    back_r.read_nonblock(1, exception: false) == :wait_readable or raise "not empty"
    IO.select(set1); back_w.syswrite(there_r.sysread(1))
    there_r.read_nonblock(1, exception: false) == :wait_readable or raise "not empty"
    IO.select(set2); back_r.sysread(1)
  end
end

def with_job(n, ios)
  there_r, there_w, back_r, back_w = ios
  a = proc { n.times { there_w.write("x"); back_r.read(1) == "x" or raise "lost" } }
  b = proc { n.times { back_w.write(there_r.read(1)) } }
  [a, b]
end

configs = {
  "floor: syscalls only" => ->(n, ios) { tight(n, ios) },
  "floor: contract's calls" => ->(n, ios) { contract(n, ios) },
  "floor: + fibers, loop" => ->(n, ios) { floor(n, ios) },
  "heddle" => ->(n, ios) { a, b = with_job(n, ios); Thread.new { Fiber.set_scheduler(Heddle::Scheduler.new); Heddle.run { Fiber.schedule(&b); a.call } }.join },
  "async" => ->(n, ios) { a, b = with_job(n, ios); Thread.new { Async { |t| [t.async(&a), t.async(&b)].each(&:wait) } }.join }
}
res = Hash.new { |h, k| h[k] = [] }
2.times { configs.each_value { |run| ios = job(0); run.(2_000, ios); ios.each(&:close) } }
trials.times do
  configs.to_a.shuffle.each do |name, run|
    ios = job(n)
    c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    run.(n, ios)
    res[name] << (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c0) / n * 1e6
    ios.each(&:close)
  end
end
puts "#{RUBY_DESCRIPTION}; n=#{n}, trials=#{trials}, load #{File.read('/proc/loadavg').split.first(3).join(' ')}"
res.each do |name, r|
  s = r.sort
  printf("%-24s cpu %6.2f [%6.2f-%6.2f] us/round trip\n", name, s[s.size / 2], s.min, s.max)
end
