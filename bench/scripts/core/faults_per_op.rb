# frozen_string_literal: true

# Minor page faults and CPU ns per call-method op, with GC off as in the
# bench's rate windows: with GC off every allocation grows the heap (Ruby
# pages, malloc'd ivar tables), and each new page costs a fault (~13 us on
# this VM). Usage (without Bundler, so only one lib loads):
#   ruby bench/scripts/core/faults_per_op.rb [LIB_DIR]
$LOAD_PATH.unshift(File.expand_path(ARGV[0] || "../../../lib/heddle", __dir__))
require "heddle"
require "objspace"

def minflt = File.read("/proc/self/stat").split[9].to_i

def faults(name)
  3.times { yield }
  GC.start
  GC.disable
  before = minflt
  cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  1000.times { yield }
  cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu
  puts format("%-26<name>s %6.3<faults>f faults/op %6.0<ns>f ns/op",
              name: name, faults: (minflt - before) / 100_000.0, ns: cpu * 1e9 / 100_000)
  GC.enable
end

quick = Heddle.concurrent_proc {}
waiting = Heddle.concurrent_proc { Heddle.wait 0 }
batch = Array.new(100)
faults("call") { batch.each { quick.call } }
faults("call_detached+wait0") { batch.each { quick.call_detached } && Heddle.wait(0) }
faults("call_and_forget+wait0") { batch.each { quick.call_and_forget } && Heddle.wait(0) }
faults("waiting call_detached") { batch.map { waiting.call_detached }.each(&:await_result) }
faults("waiting call_nonblock") { batch.map { waiting.call_nonblock }.each(&:await_result) }
faults("waiting call_and_forget") { batch.each { waiting.call_and_forget } && Heddle.wait(0) }
evaluation = Heddle.concurrently { 1 }
evaluation.await_result
puts "an evaluation: #{ObjectSpace.memsize_of(evaluation)} bytes (#{evaluation.instance_variables.size} ivars set)"
