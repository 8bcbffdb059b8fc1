# frozen_string_literal: true
# Interleaved: the messages suite's own rigs, lockstep, N workers, 20,000 round trips, 5 rounds.
require "heddle"
require "heddle/bench"
load "lib/heddle-bench/heddle/bench/suites/messages.rb" rescue nil
S = Heddle::Bench::MessagesSuite
N = Integer(ARGV[0] || 100)
TOTAL = 20_000
def clocks = [Process.clock_gettime(Process::CLOCK_MONOTONIC), Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)]
rigs = {
  "fibers, blocking read" => [-> { S.start_fibers(N, nonblock: false) }, ->(st) { S.run_fibers(st, TOTAL, :lockstep) }, ->(st) { S.stop(st) }],
  "thread per worker" => [-> { S.start_thread_per_worker(N, :lockstep) }, ->(st) { S.run_thread_per_worker(st, TOTAL) }, ->(st) { S.stop_thread_per_worker(st) }],
  "heddle fiber pool" => [-> { S.start_fiber_pool(N, :lockstep) }, ->(st) { st[:go] << TOTAL; st[:done].pop }, ->(st) { S.stop_fiber_pool(st) }]
}
res = Hash.new { |h, k| h[k] = [] }
5.times do
  rigs.to_a.shuffle.each do |name, (setup, run, teardown)|
    st = setup.call
    w, c = clocks
    replies = run.call(st)
    w2, c2 = clocks
    teardown.call(st)
    raise "#{name}: #{replies}" unless replies == TOTAL
    res[name] << [(w2 - w) * 1000, (c2 - c) * 1000]
  end
end
res.each do |name, xs|
  ws = xs.map(&:first).sort; cs = xs.map(&:last).sort
  printf("%-24s wall %7.1f ms [%.1f–%.1f]  cpu %7.1f ms [%.1f–%.1f]\n", name, ws[2], ws[0], ws[-1], cs[2], cs[0], cs[-1])
end
