# frozen_string_literal: true

require_relative "support/row_builder"
require_relative "../../bench"

# heddle's Fiber::Scheduler beside async 2.23.1's (docs/scheduler.md): two
# fibers taking turns with plain Ruby calls, run by Heddle.run and by Async { }.
# Each job runs in a thread of its own, so that each library starts a fresh
# loop and scheduler on it.
Heddle::Bench.suite(:scheduler) do |s|
  s.title "Fiber::Scheduler: two fibers taking turns with plain Ruby"
  s.seed "concurrently-performance-guide.md"
  s.description "Seconds for n turns (n = 20,000; 2,000 under --quick) between two fibers: sleep 0 in both, a " \
                "Thread::Queue hand-off there and back, a 1-byte pipe round trip. heddle runs them as concurrent " \
                "procs under Heddle.run, with its io_read/io_write hooks and without them (io_hooks: false: Ruby " \
                "reads and writes itself and calls io_wait), async as tasks under Async { }. heddle's IO readiness " \
                "back end is its default (epoll in C where the C path is built, else nio4r's); the pipe round " \
                "trip also runs on the IO.select fallback (selector: select)."
  s.kind :duration
  s.unit "seconds for n turns"
  s.trials 5
  s.budget 50

  rows = Heddle::Bench::Suites::RowBuilder.new(s)
  code = Heddle::Bench::Suites::TimedCode
  size = "n = ctx.quick? ? 2_000 : 20_000"
  jobs = {
    "sleep 0" => {
      setup: size,
      bodies: ["n.times { sleep 0 }", "n.times { sleep 0 }"]
    },
    "Queue hand-off" => {
      setup: "#{size}\nthere = Thread::Queue.new\nback = Thread::Queue.new",
      bodies: ['n.times { |i| there << i; back.pop == i or raise "the hand-off lost an item" }',
               "n.times { back << there.pop }"]
    },
    "pipe round trip" => {
      setup: "#{size}\nthere_r, there_w = IO.pipe\nback_r, back_w = IO.pipe",
      # Each read is checked: a row whose reads come back empty (async 2.24 with
      # io-event 1.11 on Ruby 3.1 returns nil from IO#read under its scheduler)
      # fails its trials instead of timing nothing.
      bodies: ['n.times { there_w.write("x"); back_r.read(1) == "x" or raise "the round trip lost its byte" }',
               'n.times { back_w.write(there_r.read(1) || raise("the read lost its byte")) }'],
      teardown: "[there_r, there_w, back_r, back_w].each(&:close)"
    }
  }
  runners = {
    "heddle" => lambda { |a, b|
      "Thread.new do\n  Heddle.run do\n    [Heddle.concurrently { #{a} },\n     Heddle.concurrently { #{b} }]" \
        ".each(&:await_result)\n  end\nend.join"
    },
    "heddle, io_hooks: false" => lambda { |a, b|
      "Thread.new do\n  Fiber.set_scheduler(Heddle::Scheduler.new(io_hooks: false))\n  Heddle.run do\n    " \
        "[Heddle.concurrently { #{a} },\n     Heddle.concurrently { #{b} }].each(&:await_result)\n  end\n" \
        "ensure\n  Fiber.set_scheduler(nil)\nend.join"
    },
    "async" => lambda { |a, b|
      "Thread.new do\n  Async do |task|\n    [task.async { #{a} },\n     task.async { #{b} }]" \
        ".each(&:wait)\n  end\nend.join"
    }
  }

  # The IO readiness back end the heddle rows use is the default (epoll in
  # C, else nio4r's); this runner pins the IO.select fallback, for the
  # pipe round trip only (docs/core.md, "Choosing the selector").
  select_runner = lambda { |a, b|
    "Thread.new do\n  # HEDDLE_SELECTOR=select\n  " \
      "Heddle::EventLoop::IOWatch.backend = Heddle::EventLoop::Selectors::SelectWatch\n  Heddle.run do\n    " \
      "[Heddle.concurrently { #{a} },\n     Heddle.concurrently { #{b} }].each(&:await_result)\n  end\n" \
      "ensure\n  Heddle::EventLoop::IOWatch.backend = nil\nend.join"
  }

  jobs.each do |job, spec|
    job_runners = job == "pipe round trip" ? runners.merge("heddle, selector: select" => select_runner) : runners
    job_runners.each do |runner, source|
      library = runner.start_with?("heddle") ? "heddle" : "async"
      timed = "#{source.call(*spec[:bodies])}\n{ turns: n }"
      label = { "heddle, io_hooks: false" => "#{job} (io_hooks: false)",
                "heddle, selector: select" => "#{job} (selector: select)" }.fetch(runner, job)
      rows.row label, library: library, compare: job, requires: library == "async" ? ["async"] : [],
                      code: code.new(setup: spec[:setup], timed: timed, teardown: spec[:teardown])
    end
  end

  s.answer "Plain Ruby sleep, Queue and pipes in fibers: heddle's scheduler vs async",
           details: "Concurrently's performance guide, its jobs run under Fiber::Scheduler",
           heddle: ["heddle sleep 0", "heddle Queue hand-off", "heddle pipe round trip"]
end
