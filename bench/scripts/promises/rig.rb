# A/B of the suite's ThreadRig rows: CFG="name:ENV=val;..." runs each config in a child process.
$LOAD_PATH.unshift File.expand_path(ENV.fetch("LIB", "../../../lib/heddle"), __dir__)
require "heddle"
require "heddle/bench"
require "concurrent"
load File.expand_path(File.join(ENV.fetch("LIB", "../../../lib/heddle"), "heddle/bench/suites/promises.rb"), __dir__)
S = Heddle::Bench::PromisesSuite
Heddle::Promises::Spinner.passes = Integer(ENV["PASSES"]) if ENV["PASSES"]
N = Integer(ENV.fetch("N", "50000"))
ROWS = {
  "queue" => [false, -> { S::QueuePromise.new }],
  "queue-reuse" => [true, -> { S::QueuePromise.new }],
  "heddle" => [false, -> { Heddle::Promise.new }],
  "heddle-reuse" => [true, -> { Heddle::Promise.new }],
  "conc" => [false, -> { Concurrent::Promises.resolvable_future }],
}
row = ROWS.fetch(ARGV[0])
GC.start
rig = S::ThreadRig.new(N, reuse: row[0], &row[1])
c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
m = rig.run
t = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
c = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c0
rig.stop
abort "FAILED #{m}" unless m[:failures].zero?
puts "#{t} #{c}"
