# In-process A/B of heddle's io_read/io_write paths on a 1-byte pipe round trip between two fibers
# (issue 26): as shipped (the C hot path, ext/heddle_native, and each IO's mode asked once), the
# pure-Ruby path with the mode asked once (HEDDLE_NATIVE=0's), the pure-Ruby path with one
# fcntl(F_GETFL) per read/write (as before the mode was remembered: the method swapped back, for
# this measurement only), io_hooks: false, and async. Interleaved in random order, trials x n
# round trips; prints CPU microseconds per round trip, median [min-max]. Build the C path first:
#   bundle exec rake compile && bundle exec ruby bench/scripts/scheduler/io_hook_paths.rb [n] [trials]
require "bundler/setup"
require "heddle"
require "async"
Warning[:experimental] = false
n = Integer(ARGV[0] || 5_000)
trials = Integer(ARGV[1] || 21)
BF = Heddle::Scheduler::BlockingFiber
NATIVE = Heddle::Scheduler::NATIVE_IO or abort "no C hot path: run `bundle exec rake compile` first"
BF.alias_method(:remembering_without_blocking, :without_blocking)
BF.define_method(:asking_without_blocking) do |io, &block|
  flags = io.fcntl(Fcntl::F_GETFL)
  next block.call unless flags.nobits?(Fcntl::O_NONBLOCK)

  io.fcntl(Fcntl::F_SETFL, flags | Fcntl::O_NONBLOCK)
  begin
    block.call
  ensure
    io.fcntl(Fcntl::F_SETFL, flags) unless io.closed?
  end
end

def job(n)
  there_r, there_w = IO.pipe
  back_r, back_w = IO.pipe
  a = proc { n.times { there_w.write("x"); back_r.read(1) == "x" or raise "lost" } }
  b = proc { n.times { back_w.write(there_r.read(1)) } }
  [a, b, [there_r, there_w, back_r, back_w]]
end

def heddle(a, b, hooks = true)
  Thread.new { Fiber.set_scheduler(Heddle::Scheduler.new(io_hooks: hooks)); Heddle.run { Fiber.schedule(&b); a.call } }.join
end

def path(native, check)
  BF.send(:remove_const, :NATIVE)
  BF.const_set(:NATIVE, native)
  BF.alias_method(:without_blocking, check)
end

configs = {
  "C path, mode remembered" => ->(a, b) { path(NATIVE, :remembering_without_blocking); heddle(a, b) },
  "Ruby path, mode remembered" => ->(a, b) { path(nil, :remembering_without_blocking); heddle(a, b) },
  "Ruby path, fcntl each call" => ->(a, b) { path(nil, :asking_without_blocking); heddle(a, b) },
  "io_hooks: false" => ->(a, b) { heddle(a, b, false) },
  "async" => ->(a, b) { Thread.new { Async { |t| [t.async(&a), t.async(&b)].each(&:wait) } }.join }
}
res = Hash.new { |h, k| h[k] = [] }
2.times { configs.each_value { |run| a, b, ios = job(2_000); run.(a, b); ios.each(&:close) } } # warm-up
trials.times do
  configs.to_a.shuffle.each do |name, run|
    a, b, ios = job(n)
    c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    run.(a, b)
    res[name] << (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c0) / n * 1e6
    ios.each(&:close)
  end
end
puts "#{RUBY_DESCRIPTION}; n=#{n}, trials=#{trials}, load #{File.read('/proc/loadavg').split.first(3).join(' ')}"
res.each do |name, r|
  s = r.sort
  printf("%-28s cpu %6.2f [%6.2f-%6.2f] us/round trip\n", name, s[s.size / 2], s.min, s.max)
end
