require "heddle"
runs = Array.new(5) do
  t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  pool = Heddle::Pool.new(worker: :process, size: 2) { |x| x }
  pool.map([1, 2])
  pool.shutdown
  Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
end.sort
yjit = defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?
printf("pool start+map+shutdown yjit=%s %s median %.1f ms [%.1f-%.1f]\n", yjit, ARGV[0], runs[2] * 1e3, runs[0] * 1e3, runs[-1] * 1e3)
