def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def minflt = File.read("/proc/self/stat").split[9].to_i
s = "x" * (40 << 20)
s.setbyte(0, 1)
(0...s.bytesize).step(4096) { |i| s.setbyte(i, 2) } # own pages
3.times do
  t = now
  pid = fork do
    t1 = now; f = minflt
    (0...s.bytesize).step(4096) { |i| s.setbyte(i, 3) }
    dt = now - t1; df = minflt - f
    STDOUT.write "child: #{df} faults in #{(dt * 1000).round(1)} ms = #{(dt / df * 1e6).round(2)} us/fault\n"; STDOUT.flush
    exit!
  end
  tf = now - t
  Process.wait(pid)
  puts "fork took #{(tf * 1000).round(2)} ms"
end
t1 = now; f = minflt
(0...s.bytesize).step(4096) { |i| s.setbyte(i, 4) }
puts "parent rewrite: #{minflt - f} faults #{((now - t1) * 1000).round(1)} ms"
