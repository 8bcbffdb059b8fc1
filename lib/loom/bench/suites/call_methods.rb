# frozen_string_literal: true

require_relative "support/row_builder"

# "Mere invocation of concurrent procs" (concurrently-performance-2017.txt,
# perf/benchmark_call_methods.rb): every call method of a concurrent proc that
# does nothing, loom beside Concurrently 1.2.0. call_detached and
# call_and_forget `wait 0` after each batch so their evaluations run.
Loom::Bench.suite(:call_methods) do |s|
  s.title "Mere invocation of concurrent procs"
  s.seed "concurrently-performance-2017.txt"
  s.description "Each call method of a concurrent proc that does nothing, in batches of 100; loom's rows use " \
                "Loom.concurrent_proc and Loom.wait, Concurrently's its Kernel methods (with the Ruby 3 shim). " \
                "Every trial runs in a fresh process. Target: loom >= 2x Concurrently on every conproc row."
  s.kind :rate
  s.trials 3
  s.budget 45

  rows = Loom::Bench::Suites::RowBuilder.new(s)
  batch = "batch = Array.new(100)"

  rows.row "proc.call", library: "ruby", compare: "proc.call", isolate: :trial,
                        code: Loom::Bench::Suites::TimedCode.new(setup: "test_proc = proc{}\n#{batch}",
                                                                 timed: "batch.each{ test_proc.call }")
  rows.pair "conproc.call", setup: "test_proc = concurrent_proc{}\n#{batch}", timed: "batch.each{ test_proc.call }"
  rows.pair "conproc.call_nonblock", setup: "test_proc = concurrent_proc{}\n#{batch}",
                                     timed: "batch.each{ test_proc.call_nonblock }"
  rows.pair "conproc.call_detached", setup: "test_proc = concurrent_proc{}\n#{batch}",
                                     timed: "batch.each{ test_proc.call_detached }\nwait 0"
  rows.pair "conproc.call_and_forget", setup: "test_proc = concurrent_proc{}\n#{batch}",
                                       timed: "batch.each{ test_proc.call_and_forget }\nwait 0"
end
