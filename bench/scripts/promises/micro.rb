$LOAD_PATH.unshift File.expand_path(ENV.fetch("LIB", "../../../lib/heddle"), __dir__)
require "heddle"
n = 1_000_000
GC.disable
3.times do
  t = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  n.times { Heddle::Promise.new.fulfill(true) }
  a = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - t
  t = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  n.times { p = Heddle::Promise.new; p.fulfill(true); p.value }
  b = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - t
  t = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  n.times { Thread.pass }
  c = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - t
  printf("new+fulfill %.0f ns  +value %.0f ns  Thread.pass alone %.0f ns\n", a * 1e9 / n, b * 1e9 / n, c * 1e9 / n)
end
