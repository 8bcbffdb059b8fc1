# frozen_string_literal: true

require_relative "support/row_builder"
require_relative "../../bench"

# Spawning many evaluations at once (docs/bench-concurrently.md): 100,000
# evaluations that each wait 0, then awaiting them all, heddle beside async
# 2.23.1; and 1,000,000 pending heddle evaluations run to completion.
Heddle::Bench.suite(:spawn) do |s|
  s.title "Spawning 100,000 evaluations that wait 0, and 1,000,000 pending ones"
  s.seed "concurrently-performance-guide.md"
  s.description "Seconds for the whole job, GC on, each trial in a fresh process (100,000 live fibers and " \
                "1,000,000 evaluations are too much to leave in the harness). async gets the obvious code " \
                "(sleep 0 in each task) and its fastest documented equivalent (Task#yield instead of sleep 0). " \
                "The 1,000,000 evaluations do not wait: waiting ones would all hold a fiber at once, " \
                "beyond what vm.max_map_count allows. " \
                "Not the same schedule: in async a child's sleep 0 returns to the reactor, which finishes it " \
                "before the parent spawns the next, so at most 2 tasks are alive (counted); heddle starts all " \
                "100,000 in one loop turn and holds 100,000 suspended fibers (20,000 at a time); the row " \
                "\"one at a time\" gives heddle async's schedule. " \
                "Target: heddle >= 3x async on the 100,000 row. Under --quick: 10,000 and 100,000."
  s.kind :duration
  s.unit "seconds for the job"
  s.trials 5
  s.budget 80

  rows = Heddle::Bench::Suites::RowBuilder.new(s)
  code = Heddle::Bench::Suites::TimedCode
  spawn = "n = ctx.quick? ? 10_000 : 100_000\ndone = 0"
  count = "{ completed: done, failures: n - done }"

  heddle_spawn = <<~RUBY
    evaluations = Array.new(n) { Heddle.concurrently { Heddle.wait 0; done += 1 } }
    evaluations.each{ |evaluation| evaluation.await_result }
    #{count}
  RUBY
  async_sleep = <<~RUBY
    Async { |t| n.times.map { t.async { sleep 0; done += 1 } }.each(&:wait) }
    #{count}
  RUBY
  async_yield = <<~RUBY
    Async { |t| n.times.map { t.async { |c| c.yield; done += 1 } }.each(&:wait) }
    #{count}
  RUBY
  # async's actual schedule (one task alive at a time besides the parent),
  # written in heddle: the same job without 100,000 suspended fibers.
  heddle_each = <<~RUBY
    n.times { Heddle.concurrently { Heddle.wait 0; done += 1 }.await_result }
    #{count}
  RUBY
  heddle_pending = <<~RUBY
    evaluations = Array.new(n) { Heddle.concurrently { done += 1 } }
    evaluations.each{ |evaluation| evaluation.await_result }
    #{count}
  RUBY

  rows.row "spawn 100k, wait 0, await all", library: "heddle", compare: "spawn 100k", isolate: :trial, estimate: 1.5,
                                            code: code.new(setup: spawn, timed: heddle_spawn)
  # Its own compare group: the suite's smoke test pins "spawn 100k" to its three rows.
  rows.row "spawn 100k one at a time (async's schedule)", library: "heddle", compare: "spawn one at a time",
                                                          isolate: :trial, estimate: 1,
                                                          code: code.new(setup: spawn, timed: heddle_each)
  rows.row "spawn 100k, sleep 0, wait all", library: "async", compare: "spawn 100k", isolate: :trial, estimate: 3,
                                            requires: ["async"], code: code.new(setup: spawn, timed: async_sleep)
  rows.row "spawn 100k, Task#yield, wait all", library: "async", compare: "spawn 100k", isolate: :trial, estimate: 3,
                                               requires: ["async"], code: code.new(setup: spawn, timed: async_yield)
  rows.row "1,000,000 pending evaluations", library: "heddle", isolate: :trial, estimate: 4,
                                            code: code.new(setup: "n = ctx.quick? ? 100_000 : 1_000_000\ndone = 0",
                                                           timed: heddle_pending)

  # How the report compares the rows: both of heddle's schedules against both
  # of async's (the same 100,000 spawns); the 1,000,000 pending have no peer.
  async_rows = ["async spawn 100k, sleep 0, wait all", "async spawn 100k, Task#yield, wait all"]
  s.group "spawn 100k", rows: /100k/, pairs: { "heddle spawn 100k, wait 0, await all" => async_rows,
                                               "heddle spawn 100k one at a time (async's schedule)" => async_rows }
  s.answer "Starting 100,000 small concurrent tasks: heddle vs async",
           details: "Concurrently's performance guide: spawning 100,000 evaluations that wait 0",
           group: "spawn 100k", heddle: "heddle spawn 100k, wait 0, await all", target: 3
end
