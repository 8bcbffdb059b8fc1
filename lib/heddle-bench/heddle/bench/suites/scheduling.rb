# frozen_string_literal: true

require_relative "support/row_builder"
require_relative "../../bench"

# "Scheduling (concurrent) procs" (concurrently-performance-guide.md,
# perf/concurrent_proc_calls_awaiting.rb): a proc that waits 0, started once
# per loop turn with each call method, the caller then waiting 0 to enter the
# event loop. Closer to real use than call_methods: scheduling dominates.
Heddle::Bench.suite(:scheduling) do |s|
  s.title "Scheduling concurrent procs"
  s.seed "concurrently-performance-guide.md"
  s.description "The guide's loop `1.times{ CODE }; wait 0` for a proc that waits 0, 100 times per batch. " \
                "Every trial runs in a fresh process."
  s.kind :rate
  s.trials 3
  s.budget 40

  rows = Heddle::Bench::Suites::RowBuilder.new(s)
  %w[call call_nonblock call_detached call_and_forget].each do |method|
    rows.pair "conproc.#{method}",
              setup: "conproc = concurrent_proc{ wait 0 }\nbatch = Array.new(100)",
              timed: "batch.each do\n  1.times{ conproc.#{method} }\n  wait 0 # to enter the event loop\nend"
  end

  s.answer "Code written for Concurrently: heddle vs Concurrently 1.2.0", target: 2
  # The guide's own figures, executions per second.
  { "call" => 72_444, "call_nonblock" => 103_468, "call_detached" => 114_882, "call_and_forget" => 117_425 }
    .each do |method, value|
    s.reference "Concurrently conproc.#{method}", value, note: "Concurrently's guide: Ruby 2.4.1, i7-5820K"
  end
end
