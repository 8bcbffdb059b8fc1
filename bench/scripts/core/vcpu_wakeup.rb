# A Thread::Queue round trip between two threads with the machine's other CPUs idle, then with a
# busy process keeping them awake, then idle again (trials x n round trips each; wall microseconds
# per round trip, median [min-max]). On a VM whose idle vCPUs halt (the guest's cpuidle driver is
# printed), waking the thread on an idle vCPU costs the hypervisor's wake-up: the idle figure is
# then many times the busy one, and every thread hand-off row of `heddle bench` moves with how
# busy the rest of the machine is. docs/journal/bench.md, "thread hand-offs and idle vCPUs".
#   ruby [--yjit] bench/scripts/core/vcpu_wakeup.rb [n] [trials]
require "etc"
n = Integer(ARGV[0] || 20_000)
trials = Integer(ARGV[1] || 5)

def round_trips(n, trials)
  there = Thread::Queue.new
  back = Thread::Queue.new
  echo = Thread.new { loop { back << there.pop } }
  times = Array.new(trials) do
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    n.times { there << 1; back.pop }
    (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0) / n * 1e6
  end.sort
  echo.kill
  format("%.1f [%.1f-%.1f]", times[times.size / 2], times.first, times.last)
end

driver = File.read("/sys/devices/system/cpu/cpuidle/current_driver").strip rescue "unknown" # rubocop:disable Style/RescueModifier
puts "#{RUBY_DESCRIPTION}; #{Etc.nprocessors} CPUs; cpuidle driver #{driver}; n=#{n}, trials=#{trials}"
puts "other CPUs idle:    #{round_trips(n, trials)} us/round trip"
spinners = Array.new([Etc.nprocessors - 1, 1].max) { spawn(RbConfig.ruby, "-e", "loop {}") }
sleep 0.3
puts "other CPUs busy:    #{round_trips(n, trials)} us/round trip (#{spinners.size} spinning process)"
spinners.each { |pid| Process.kill(:KILL, pid) }
Process.waitall
sleep 0.3
puts "other CPUs idle:    #{round_trips(n, trials)} us/round trip"
