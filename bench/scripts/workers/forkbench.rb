# fork + exit! + waitpid round trip, median of 5 runs of 40 forks
runs = Array.new(5) do
  t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  40.times { Process.wait(fork { exit!(0) }) }
  (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t) / 40
end.sort
yjit = defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?
printf("%-40s median %.2f ms [%.2f-%.2f]\n", "yjit=#{yjit} #{ARGV[0]}", runs[2] * 1e3, runs[0] * 1e3, runs[-1] * 1e3)
