# The machine's own ceiling for 2-way CPU parallelism right now: inline vs 2 forks, same script.
def tarai(x, y, z) = x <= y ? y : tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y))
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def cpu = Process.times.then { |t| t.utime + t.stime + t.cutime + t.cstime }
n = Integer(ARGV[0] || 100)
rounds = Integer(ARGV[1] || 3)
rounds.times do
  t = now; c = cpu
  n.times { tarai(10, 5, 0) }
  inline = now - t; inline_cpu = cpu - c
  t = now; c = cpu
  2.times.map { fork { (n / 2).times { tarai(10, 5, 0) }; exit!(0) } }.each { |pid| Process.wait(pid) }
  two = now - t; two_cpu = cpu - c
  printf "inline %.2f s (cpu %.2f)  2 forks %.2f s (cpu %.2f)  ceiling %.2fx  load %s\n", inline, inline_cpu, two, two_cpu, inline / two, File.read("/proc/loadavg").split[0, 3].join(" ")
end
