require "heddle"
require "heddle/check"
require "parallel"
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def flts = File.read("/proc/self/stat").split.values_at(9, 10).map(&:to_i)
def cpu = Process.times.then { |t| [t.utime + t.stime, t.cutime + t.cstime] }
puts File.read("/proc/self/status")[/VmRSS.*\n/]
def run(label, n = 10)
  f = flts; t = now; c = cpu
  n.times { yield }
  f2 = flts; c2 = cpu
  puts "#{label}: #{((now - t) * 1000 / n).round(2)} ms each; parent faults #{(f2[0] - f[0]) / n} child faults #{(f2[1] - f[1]) / n}; cpu parent #{((c2[0]-c[0])*1000/n).round(2)} children #{((c2[1]-c[1])*1000/n).round(2)} ms"
end
run("fork exit!") { Process.wait(fork { exit!(0) }) }
run("fork alloc 1000 strs exit!") { Process.wait(fork { 1000.times { |i| "x#{i}" }; exit!(0) }) }
run("fork raise+dump exit!") { Process.wait(fork { begin; raise "x"; rescue => e; Marshal.dump(e); end; exit!(0) }) }
run("GC.start") { GC.start }
run("fork; GC.start") { Process.wait(fork { exit!(0) }); GC.start }
run("fork; 10k allocs") { Process.wait(fork { exit!(0) }); 10000.times { |i| "x#{i}" } }
run("10k allocs") { 10000.times { |i| "x#{i}" } }
