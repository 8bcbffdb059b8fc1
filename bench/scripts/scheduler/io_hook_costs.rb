# In-process A/B of what heddle's io_read/io_write cost on a 1-byte pipe round trip between two
# fibers: heddle as shipped (one fcntl(F_GETFL) per read/write so that a blocking-mode descriptor
# cannot freeze the loop, issue 26), heddle without that check (the method swapped back to a
# plain yield, for this measurement only), heddle with io_hooks: false, and async. Interleaved
# in random order, trials x n round trips; prints wall and CPU microseconds per round trip.
#   bundle exec ruby bench/scripts/scheduler/io_hook_costs.rb [n] [trials]
require "bundler/setup"
require "heddle"
require "async"
n = Integer(ARGV[0] || 20_000)
trials = Integer(ARGV[1] || 7)
BF = Heddle::Scheduler::BlockingFiber
BF.alias_method(:checked_without_blocking, :without_blocking)
BF.define_method(:unchecked_without_blocking) { |_io, &block| block.call }

def job(n)
  there_r, there_w = IO.pipe
  back_r, back_w = IO.pipe
  a = proc { n.times { there_w.write("x"); back_r.read(1) == "x" or raise "lost" } }
  b = proc { n.times { back_w.write(there_r.read(1)) } }
  [a, b, [there_r, there_w, back_r, back_w]]
end

def heddle(a, b, hooks)
  Thread.new do
    Fiber.set_scheduler(Heddle::Scheduler.new(io_hooks: hooks))
    Heddle.run { [Heddle.concurrently(&a), Heddle.concurrently(&b)].each(&:await_result) }
  ensure
    Fiber.set_scheduler(nil)
  end.join
end

configs = {
  "heddle (fcntl check)" => ->(a, b) { BF.alias_method(:without_blocking, :checked_without_blocking); heddle(a, b, true) },
  "heddle (no check)" => ->(a, b) { BF.alias_method(:without_blocking, :unchecked_without_blocking); heddle(a, b, true) },
  "heddle io_hooks: false" => ->(a, b) { heddle(a, b, false) },
  "async" => ->(a, b) { Thread.new { Async { |t| [t.async(&a), t.async(&b)].each(&:wait) } }.join }
}
res = Hash.new { |h, k| h[k] = [] }
configs.each { |_, run| a, b, ios = job(1_000); run.(a, b); ios.each(&:close) } # warm-up
trials.times do
  configs.to_a.shuffle.each do |name, run|
    a, b, ios = job(n)
    c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    run.(a, b)
    res[name] << [(Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0) / n * 1e6,
                  (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c0) / n * 1e6]
    ios.each(&:close)
  end
end
med = ->(a) { s = a.sort; s[s.size / 2] }
puts "#{RUBY_DESCRIPTION}; n=#{n}, trials=#{trials}, load #{File.read('/proc/loadavg').split.first(3).join(' ')}"
res.each do |name, r|
  cpu = r.map(&:last)
  printf("%-24s wall %6.2f  cpu %6.2f [%6.2f-%6.2f] us/round trip\n", name, med.(r.map(&:first)), med.(cpu), cpu.min, cpu.max)
end
