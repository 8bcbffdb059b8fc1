# frozen_string_literal: true

require_relative "support/row_builder"
require_relative "../../bench"

# Limits and groups beside async 2.23.1 (docs/sync.md): a
# semaphore's acquire and release, a group's wait for all and stop of all,
# Heddle::Semaphore and Heddle::Group against Async::Semaphore and
# Async::Barrier. Each job runs in a thread of its own, so that each library
# starts a fresh loop (and scheduler) on it; each checks its own count, so a
# row that loses work fails instead of timing less.
Heddle::Bench.suite(:sync) do |s|
  s.title "Limits and groups: semaphore acquire/release, wait for all, stop all"
  s.description "Seconds for a fixed job, GC on. Semaphore: n = 100,000 acquire+release pairs (block form) in " \
                "one fiber, uncontended; then 10 fibers sharing a limit of 2, each taking the semaphore n/10 " \
                "times around a zero wait (sleep 0 in both, under Heddle.run and Async { }). Group: 10,000 procs " \
                "(tasks) that each wait 0 once, spawned into a Heddle::Group (Async::Barrier) and waited for; " \
                "10,000 that wait 10 s, stopped at once (their ensure blocks run). Under --quick: a tenth."
  s.kind :duration
  s.unit "seconds for the job"
  s.trials 5
  s.budget 60

  rows = Heddle::Bench::Suites::RowBuilder.new(s)
  code = Heddle::Bench::Suites::TimedCode
  in_thread = ->(body) { "Thread.new do\n#{body.chomp.gsub(/^/, '  ')}\nend.join" }
  async_requires = "require \"async/semaphore\"\nrequire \"async/barrier\"\n"
  jobs = {
    "semaphore acquire/release" => {
      setup: "n = ctx.quick? ? 10_000 : 100_000",
      heddle: <<~RUBY,
        semaphore = Heddle::Semaphore.new(1)
        n.times { semaphore.acquire { nil } }
      RUBY
      async: <<~RUBY
        Async do
          semaphore = Async::Semaphore.new(1)
          n.times { semaphore.acquire { nil } }
        end
      RUBY
    },
    "semaphore, 10 fibers, limit 2" => {
      setup: "n = ctx.quick? ? 10_000 : 100_000\nheld = 0",
      heddle: <<~'RUBY',
        Heddle.run do
          semaphore = Heddle::Semaphore.new(2)
          Array.new(10) do
            Heddle.concurrently { (n / 10).times { semaphore.acquire { sleep 0; held += 1 } } }
          end.each(&:await_result)
        end
        held == n or raise "lost acquires: #{held}"
      RUBY
      async: <<~'RUBY'
        Async do |task|
          semaphore = Async::Semaphore.new(2)
          Array.new(10) do
            task.async { (n / 10).times { semaphore.acquire { sleep 0; held += 1 } } }
          end.each(&:wait)
        end
        held == n or raise "lost acquires: #{held}"
      RUBY
    },
    "wait for all" => {
      setup: "n = ctx.quick? ? 1_000 : 10_000\ndone = 0",
      heddle: <<~RUBY,
        Heddle.run do
          group = Heddle::Group.new
          n.times { group.spawn { sleep 0; done += 1 } }
          group.wait
        end
        done == n or raise "lost procs"
      RUBY
      async: <<~RUBY
        Async do
          barrier = Async::Barrier.new
          n.times { barrier.async { sleep 0; done += 1 } }
          barrier.wait
        end
        done == n or raise "lost tasks"
      RUBY
    },
    "stop all" => {
      setup: "n = ctx.quick? ? 1_000 : 10_000\ncleaned = 0",
      heddle: <<~RUBY,
        Heddle.run do
          group = Heddle::Group.new
          n.times do
            group.spawn do
              sleep 10
            ensure
              cleaned += 1
            end
          end
          sleep 0
          group.stop
        end
        cleaned == n or raise "ensure blocks skipped"
      RUBY
      async: <<~RUBY
        Async do
          barrier = Async::Barrier.new
          n.times do
            barrier.async do
              sleep 10
            ensure
              cleaned += 1
            end
          end
          sleep 0
          barrier.stop
        end
        cleaned == n or raise "ensure blocks skipped"
      RUBY
    }
  }

  jobs.each do |job, spec|
    %w[heddle async].each do |library|
      async = library == "async"
      timed = "#{in_thread.call(spec.fetch(library.to_sym))}\n{ jobs: 1 }"
      setup = async ? async_requires + spec[:setup] : spec[:setup]
      rows.row job, library: library, compare: job, requires: async ? ["async"] : [],
                    code: code.new(setup: setup, timed: timed)
    end
  end
end
