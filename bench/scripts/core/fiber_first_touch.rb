# What a fiber's first use costs here: creating N fibers that each stay
# alive (as heddle's spawn row keeps 20,000 suspended), then the same again
# after they died, when Ruby's fiber pool hands their stacks back.
# usage: ruby bench/scripts/core/fiber_first_touch.rb 20000
def measure(label)
  cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  faults = File.read("/proc/self/stat").split[9].to_i
  result = yield
  printf("%-30s cpu %.3f s  faults %d\n", label, Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu,
         File.read("/proc/self/stat").split[9].to_i - faults)
  result
end

n = Integer(ARGV.fetch(0, "20000"))
make = -> { Array.new(n) { Fiber.new { loop { Fiber.yield } }.tap(&:resume) } }
fibers = measure("#{n} new fibers, first use", &make)
measure("resume them all again") { fibers.each(&:resume) }
fibers = nil # rubocop:disable Lint/UselessAssignment -- let them die
GC.start
measure("#{n} new fibers, stacks reused", &make)
