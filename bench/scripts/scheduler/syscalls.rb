# One 1-byte pipe round-trip job (2,000 round trips between two fibers) under heddle, heddle with
# io_hooks: false, async, or nothing ("none": the start-up alone), for counting system calls:
#   strace -f -c -o /tmp/st-heddle.txt bundle exec ruby --yjit bench/scripts/scheduler/syscalls.rb heddle
# then subtract the "none" run's counts and divide by 2,000.
require "bundler/setup"
require "heddle"
require "async"
n = 2000
there_r, there_w = IO.pipe; back_r, back_w = IO.pipe
a = proc { n.times { there_w.write("x"); back_r.read(1) } }
b = proc { n.times { back_w.write(there_r.read(1)) } }
case ARGV[0]
when "heddle" then Heddle.run { [Heddle.concurrently(&a), Heddle.concurrently(&b)].each(&:await_result) }
when "nohooks" then Fiber.set_scheduler(Heddle::Scheduler.new(io_hooks: false)); Heddle.run { [Heddle.concurrently(&a), Heddle.concurrently(&b)].each(&:await_result) }; Fiber.set_scheduler(nil)
when "async" then Async { |t| [t.async(&a), t.async(&b)].each(&:wait) }
end
