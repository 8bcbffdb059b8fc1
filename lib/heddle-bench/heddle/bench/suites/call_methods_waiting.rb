# frozen_string_literal: true

require_relative "support/row_builder"
require_relative "../../bench"

# "Waiting inside concurrent procs" (concurrently-performance-2017.txt,
# perf/benchmark_call_methods_waiting.rb): the four call methods on a proc
# that returns at once and on one that waits 0, each synchronised the way the
# seed does (call already waits; call_detached and a waiting call_nonblock
# await every result; call_and_forget waits 0 per batch). heddle beside
# Concurrently 1.2.0.
Heddle::Bench.suite(:call_methods_waiting) do |s|
  s.title "Waiting inside concurrent procs"
  s.seed "concurrently-performance-2017.txt"
  s.description "The seed's 8 rows: each call method with a proc that does nothing and with one that waits 0, " \
                "results synchronised per batch of 100. Every trial runs in a fresh process. " \
                "Target: heddle >= 2x Concurrently on every row."
  s.kind :rate
  s.trials 3
  s.budget 75

  rows = Heddle::Bench::Suites::RowBuilder.new(s)
  batch = "batch = Array.new(100)"
  # How the seed synchronises each call method's results (perf/stage/benchmark/code_gen/batch.rb).
  timed = {
    call: "batch.each{ test_proc.call }\n# Concurrently::Proc#call already synchronizes the results of evaluations",
    call_nonblock: "batch.each{ test_proc.call_nonblock }",
    call_detached: "evaluations = batch.map{ test_proc.call_detached }\n" \
                   "evaluations.each{ |evaluation| evaluation.await_result }",
    call_and_forget: "batch.each{ test_proc.call_and_forget }\nwait 0"
  }
  waiting_nonblock = "evaluations = batch.map{ test_proc.call_nonblock }\n" \
                     "evaluations.each{ |evaluation| evaluation.await_result }"

  timed.each do |method, code|
    rows.pair method.to_s, setup: "test_proc = concurrent_proc{}\n#{batch}", timed: code
  end
  timed.merge(call_nonblock: waiting_nonblock).each do |method, code|
    rows.pair "waiting #{method}", setup: "test_proc = concurrent_proc{ wait 0 }\n#{batch}", timed: code
  end

  s.answer "Code written for Concurrently: heddle vs Concurrently 1.2.0", target: 2
  # The seed's own figures, executions per second.
  { "call" => 687_600, "call_nonblock" => 855_600, "call_detached" => 426_400, "call_and_forget" => 722_200,
    "waiting call" => 90_300, "waiting call_nonblock" => 191_800, "waiting call_detached" => 190_300,
    "waiting call_and_forget" => 207_100 }.each do |row, value|
    s.reference "Concurrently #{row}", value, note: "Concurrently's report: Ruby 2.4.1, i7-5820K"
  end
end
