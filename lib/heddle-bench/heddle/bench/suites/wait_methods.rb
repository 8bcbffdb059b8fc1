# frozen_string_literal: true

require_relative "support/row_builder"
require_relative "../../bench"

# "Mere waiting" (concurrently-performance-2017.txt, perf/benchmark_wait_methods.rb):
# how often per second the root fiber can wait 0, await a readable pipe and
# await a writable pipe, heddle beside Concurrently 1.2.0. As in the seed, the
# waiting proc is a plain proc called from the root fiber, and each of the
# batch's 100 pipes is ready before the wait.
Heddle::Bench.suite(:wait_methods) do |s|
  s.title "Mere waiting"
  s.seed "concurrently-performance-2017.txt"
  s.description "wait 0 and IO readiness awaited from the root fiber, in batches of 100 (100 pipes, each with " \
                "a byte written for await_readable). Targets: wait 0 >= 2x Concurrently, " \
                "await_readable/await_writable >= 4x. Every trial runs in a fresh process."
  s.kind :rate
  s.trials 3
  s.budget 25

  rows = Heddle::Bench::Suites::RowBuilder.new(s)
  close_pipes = "batch.each{ |pipe| pipe.each(&:close) }"

  rows.pair "wait 0", setup: "test_proc = proc do\n  wait 0 # schedule the proc be resumed ASAP\nend\n" \
                             "batch = Array.new(100)",
                      timed: "batch.each{ test_proc.call }"
  rows.pair "await_readable", setup: "test_proc = proc do |r,w|\n  r.await_readable\nend\n" \
                                     "batch = Array.new(100) do |idx|\n  IO.pipe.tap{ |r,w| w.write '0' }\nend",
                              timed: "batch.each{ |*args| test_proc.call(*args) }", teardown: close_pipes
  rows.pair "await_writable", setup: "test_proc = proc do |r,w|\n  w.await_writable\nend\n" \
                                     "batch = Array.new(100) do |idx|\n  IO.pipe\nend",
                              timed: "batch.each{ |*args| test_proc.call(*args) }", teardown: close_pipes

  s.answer "Code written for Concurrently: heddle vs Concurrently 1.2.0", heddle: "heddle wait 0", target: 2
  s.answer "Code written for Concurrently: heddle vs Concurrently 1.2.0", heddle: /\Aheddle await_/, target: 4
  # The seed's own figures, executions per second.
  { "wait 0" => 291_100, "await_readable" => 147_800, "await_writable" => 148_300 }.each do |row, value|
    s.reference "Concurrently #{row}", value, note: "Concurrently's report: Ruby 2.4.1, i7-5820K"
  end
end
