# A/B probe for the core hot paths in a fresh process, GC off like the
# benchmark windows: page faults and CPU time per call for one row.
# usage: LIB=path/to/lib ruby bench/scripts/core/fresh_probe.rb ROW BATCHES
#   ROW: cf cn cd wc wn wd wf (call_and_forget, call_nonblock, call_detached
#   +await, waiting call, waiting call_nonblock, waiting call_detached,
#   waiting call_and_forget); BATCHES of 100 calls. Alternate two libs.
$LOAD_PATH.unshift(ENV["LIB"].to_s.empty? ? File.expand_path("../../../lib/heddle", __dir__) : ENV["LIB"])
require "heddle/procs"
def wait(s) = Heddle.wait(s)
row = ARGV[0]; n = Integer(ARGV[1])
pr = Heddle.concurrent_proc {}
w = Heddle.concurrent_proc { wait 0 }
b = Array.new(100)
body = case row
  when "cf" then -> { b.each { pr.call_and_forget }; wait 0 }
  when "cn" then -> { b.each { pr.call_nonblock } }
  when "cd" then -> { b.map { pr.call_detached }.each(&:await_result) }
  when "wc" then -> { b.each { w.call } }
  when "wn" then -> { b.map { w.call_nonblock }.each(&:await_result) }
  when "wd" then -> { b.map { w.call_detached }.each(&:await_result) }
  when "wf" then -> { b.each { w.call_and_forget }; wait 0 }
end
3.times { body.call }
GC.disable
f0 = File.read("/proc/self/stat").split[9].to_i
c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
n.times { body.call }
c1 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
f1 = File.read("/proc/self/stat").split[9].to_i
printf("%s faults/op %.3f cpu_ns/op %.0f\n", row, (f1 - f0) / (n * 100.0), (c1 - c0) / (n * 100.0) * 1e9)
