# frozen_string_literal: true

require_relative "support/row_builder"
require_relative "../../bench"

# "Mere invocation of concurrent procs" (concurrently-performance-2017.txt,
# perf/benchmark_call_methods.rb): every call method of a concurrent proc that
# does nothing, heddle beside Concurrently 1.2.0. call_detached and
# call_and_forget `wait 0` after each batch so their evaluations run.
Heddle::Bench.suite(:call_methods) do |s|
  s.title "Mere invocation of concurrent procs"
  s.seed "concurrently-performance-2017.txt"
  s.description "Each call method of a concurrent proc that does nothing, in batches of 100; heddle's rows use " \
                "Heddle.concurrent_proc and Heddle.wait, Concurrently's its Kernel methods (with the Ruby 3 shim). " \
                "Every trial runs in a fresh process. Target: heddle >= 2x Concurrently on every conproc row."
  s.kind :rate
  s.trials 3
  s.budget 45

  rows = Heddle::Bench::Suites::RowBuilder.new(s)
  batch = "batch = Array.new(100)"

  rows.row "proc.call", library: "ruby", compare: "proc.call", isolate: :trial,
                        code: Heddle::Bench::Suites::TimedCode.new(setup: "test_proc = proc{}\n#{batch}",
                                                                   timed: "batch.each{ test_proc.call }")
  rows.pair "conproc.call", setup: "test_proc = concurrent_proc{}\n#{batch}", timed: "batch.each{ test_proc.call }"
  rows.pair "conproc.call_nonblock", setup: "test_proc = concurrent_proc{}\n#{batch}",
                                     timed: "batch.each{ test_proc.call_nonblock }"
  rows.pair "conproc.call_detached", setup: "test_proc = concurrent_proc{}\n#{batch}",
                                     timed: "batch.each{ test_proc.call_detached }\nwait 0"
  rows.pair "conproc.call_and_forget", setup: "test_proc = concurrent_proc{}\n#{batch}",
                                       timed: "batch.each{ test_proc.call_and_forget }\nwait 0"

  # How the report compares the rows: each heddle row against Concurrently's
  # row of the same call (`compare:`); a plain proc.call is the floor.
  s.group "call methods", rows: /./, floors: "Ruby proc.call"
  s.answer "Code written for Concurrently: heddle vs Concurrently 1.2.0",
           target: 2, details: "Concurrently's own benchmark reports (its 2017 figures and its performance guide)"
  # The seed's own figures, executions per second.
  { "Ruby proc.call" => 11_048_400, "Concurrently conproc.call" => 734_000,
    "Concurrently conproc.call_nonblock" => 857_800, "Concurrently conproc.call_detached" => 464_800,
    "Concurrently conproc.call_and_forget" => 721_800 }.each do |row, value|
    s.reference row, value, note: "Concurrently's report: Ruby 2.4.1, i7-5820K"
  end
end
