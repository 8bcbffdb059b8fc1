# frozen_string_literal: true
# One lockstep measurement per run: CPU and wall us per ask (see ab.sh).
require "heddle"
N = 20_000
kind, size = ARGV[0].to_sym, Integer(ARGV[1])
def clocks = [Process.clock_gettime(Process::CLOCK_MONOTONIC), Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)]
run = lambda do
  pool = Heddle::Pool.new(worker: kind, size: size) { |m| m == "STATUS" ? "OK" : "?" }
  pool.ask("STATUS")
  w, c = clocks
  N.times { pool.ask("STATUS") }
  w2, c2 = clocks
  pool.shutdown
  printf("%.2f %.2f\n", (w2 - w) * 1e6 / N, (c2 - c) * 1e6 / N)
end
kind == :fiber ? Heddle.run(&run) : run.call
