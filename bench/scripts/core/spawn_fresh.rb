# frozen_string_literal: true

# Spawning 100,000 evaluations that wait 0 (bench spawn's heddle row), with the
# fibers it kept and the minor page faults it took (fresh fiber stacks are
# most of them: ~4 each). Usage, without Bundler so only one lib loads:
#   ruby bench/scripts/core/spawn_fresh.rb [LIB_DIR]
# LIB_DIR (absolute) lets an old checkout's lib be compared (default: this lib).
$LOAD_PATH.unshift(File.expand_path(ARGV[0] || "../../../lib/heddle", __dir__))
require "heddle"

def minflt = File.read("/proc/self/stat").split[9].to_i

loop = Heddle::EventLoop.current
n = 100_000
done = 0
faults = minflt
cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
wall = Process.clock_gettime(Process::CLOCK_MONOTONIC)
Array.new(n) { Heddle.concurrently { Heddle.wait 0; done += 1 } }.each(&:await_result)
wall = Process.clock_gettime(Process::CLOCK_MONOTONIC) - wall
cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu
raise "only #{done} of #{n} ran" unless done == n

puts format("wall %.3f s  cpu %.3f s  fibers %d  minor faults %d", wall, cpu, loop.fibers, minflt - faults)
