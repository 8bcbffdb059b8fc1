# frozen_string_literal: true

require_relative "../../bench"
require_relative "support/redis_fleet"
require_relative "support/sidekiq_peer"

# worker: :redis against Sidekiq, and against itself with 1 and 2 workers,
# a local process pool, and a worker killed at the half (docs/redis.md).
Heddle::Bench.suite(:distributed) do |s|
  s.title "Distributed maps: worker: :redis over `heddle worker` processes"
  s.description "Seconds per map (lower is better). Workers are separate processes on this machine standing in " \
                "for machines, on a redis-server of the suite's own (127.0.0.1); they are started in the row's " \
                "setup (timed apart), and the pool has run one untimed map there (of all the row's items in the " \
                "heavy rows). Trivial items: the per-item overhead is the map's time / 10,000; the peer is " \
                "Sidekiq 7.3 with 2 processes (default " \
                "concurrency, 5 threads each), jobs that RPUSH their result to a list and a caller that " \
                "push_bulks the jobs and BLMPOPs every result: what a user writes today. Heavy items: the map " \
                "suite's tarai(10, 5, 0) (~8 ms of CPU). Targets: trivial overhead <= 1/3 of Sidekiq's; 200 " \
                "heavy items on 2 workers >= 1.7x 1 worker and within 1.2x a local process pool of 2; a worker " \
                "killed (kill -9) at half the undisturbed time (measured in setup): <= 1.5x undisturbed + the " \
                "visibility timeout (1 s here)."
  s.kind :duration
  s.unit "seconds per map"
  s.trials 5
  s.budget 200

  fleet = Heddle::Bench::RedisFleet
  sidekiq = Heddle::Bench::SidekiqPeer
  map = -> { Heddle::Bench::MapSuite } # map.rb loads after this file
  visibility = 1
  # heddle's Redis rows need the heddle-redis gem and its redis-client: without them they are skipped, not failed.
  redis_rows = ["heddle/workers/redis", "redis-client"]
  counts = ->(ctx) { ctx.quick? ? { trivial: 1_000, heavy: 20 } : { trivial: 10_000, heavy: 200 } }
  expected = ->(job, items) { items.map { |i| job == :trivial ? map.call.trivial(i) : map.call.heavy(i) } }
  checked = ->(state, results) { { items: results.size, failures: results == state[:expected] ? 0 : 1 } }

  # The untimed map of a heavy row's setup is all its items, local pool and Redis workers alike: a
  # fresh worker process runs its first few hundred heavy items slower (YJIT still compiling),
  # while a local pool's forks inherit whatever their parent had warmed. Trivial rows keep a
  # short one, as their peer Sidekiq gets.
  warm_up = ->(job, items, workers) { job == :heavy ? items : items.first(workers * 4) }
  prepare = lambda do |job, ctx, workers|
    items = Array.new(counts.call(ctx)[job]) { |i| i }
    pids = fleet.start_workers(workers)
    pool = Heddle::Pool.new(worker: :redis, handler: :"bench.#{job}", url: fleet.url, visibility_timeout: visibility)
    pool.map(warm_up.call(job, items, workers))
    { items: items, expected: expected.call(job, items), pids: pids, pool: pool }
  end
  release = lambda do |state|
    state[:pool]&.shutdown(kill: true)
    fleet.stop(state[:pids] || [])
  end

  s.row "10,000 trivial items: heddle redis, 2 workers", library: "heddle", compare: "trivial",
                                                         params: { job: :trivial, workers: 2 }, estimate: 0.3,
                                                         requires: redis_rows do |r|
    r.code "# setup: heddle worker --redis URL --require handlers.rb  (x2)\n" \
           "pool = Heddle::Pool.new(worker: :redis, handler: :\"bench.trivial\", url: URL)\npool.map(items)"
    r.setup { |ctx| prepare.call(:trivial, ctx, 2) }
    r.run { |state, _ctx| checked.call(state, state[:pool].map(state[:items])) }
    r.teardown { |state, _ctx| release.call(state) }
  end

  s.row "10,000 trivial items: Sidekiq 7.3, 2 processes", library: "sidekiq", compare: "trivial",
                                                          params: { job: :trivial, workers: 2 }, requires: ["sidekiq"],
                                                          estimate: 5.0 do |r|
    r.code "# setup: sidekiq -r job.rb -q heddle_bench  (x2; TrivialJob#perform RPUSHes \"index:result\")\n" \
           "Sidekiq::Client.push_bulk(\"class\" => TrivialJob, \"args\" => items.each_with_index.map { ... })\n" \
           "BLMPOP results until every index has come back"
    r.setup do |ctx|
      sidekiq.configure
      items = Array.new(counts.call(ctx)[:trivial]) { |i| i }
      pids = sidekiq.start(2)
      sidekiq.map(items.first(100))
      { items: items, expected: expected.call(:trivial, items), pids: pids }
    end
    r.run { |state, _ctx| checked.call(state, sidekiq.map(state[:items])) }
    r.teardown { |state, _ctx| release.call(state) }
  end

  [1, 2].each do |workers|
    s.row "200 CPU-heavy items: heddle redis, #{workers} worker#{'s' if workers > 1}", library: "heddle",
                                                                                       compare: "heavy",
                                                                                       params: { job: :heavy,
                                                                                                 workers: workers },
                                                                                       estimate: 1.8 / workers,
                                                                                       requires: redis_rows do |r|
      r.code "# setup: heddle worker --redis URL --require handlers.rb  (x#{workers})\n" \
             "pool = Heddle::Pool.new(worker: :redis, handler: :\"bench.heavy\", url: URL)\npool.map(items)"
      r.setup { |ctx| prepare.call(:heavy, ctx, workers) }
      r.run { |state, _ctx| checked.call(state, state[:pool].map(state[:items])) }
      r.teardown { |state, _ctx| release.call(state) }
    end
  end

  s.row "200 CPU-heavy items: heddle process pool of 2, warm", library: "heddle", compare: "heavy",
                                                               params: { job: :heavy, workers: 2, local: true },
                                                               estimate: 0.9 do |r|
    r.code "pool = Heddle::Pool.new(worker: :process, size: 2, &Heddle::Bench::MapSuite.method(:heavy))  # setup\n" \
           "pool.map(items)"
    r.setup do |ctx|
      items = Array.new(counts.call(ctx)[:heavy]) { |i| i }
      pool = Heddle::Pool.new(worker: :process, size: 2, &map.call.method(:heavy))
      pool.map(warm_up.call(:heavy, items, 2))
      { items: items, expected: expected.call(:heavy, items), pool: pool }
    end
    r.run { |state, _ctx| checked.call(state, state[:pool].map(state[:items])) }
    r.teardown { |state, _ctx| state[:pool].shutdown }
  end

  s.row "200 CPU-heavy items: heddle redis, 2 workers, one killed at the half", library: "heddle", compare: "heavy",
                                                                                params: { job: :heavy, workers: 2,
                                                                                          killed: true },
                                                                                estimate: 2.5,
                                                                                requires: redis_rows do |r|
    r.code "# setup: 2 workers; one undisturbed map, timed: t\n" \
           "Thread.new { sleep t / 2; Process.kill(\"KILL\", worker_pid) }\npool.map(items)  # visibility_timeout: 1"
    r.setup do |ctx|
      state = prepare.call(:heavy, ctx, 2)
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      state[:pool].map(state[:items])
      state.merge(undisturbed: Process.clock_gettime(Process::CLOCK_MONOTONIC) - started)
    end
    r.run do |state, _ctx|
      killer = Thread.new do
        sleep state[:undisturbed] / 2
        fleet.signal("KILL", state[:pids].first)
      end
      results = state[:pool].map(state[:items])
      killer.join
      checked.call(state, results).merge(undisturbed_seconds: state[:undisturbed])
    end
    r.teardown { |state, _ctx| release.call(state) }
  end

  # The issue's targets, one line of the report's first screen (the killed row's bound,
  # 1.5x undisturbed + the visibility timeout, is not a ratio of two rows: docs/redis.md).
  two = "200 CPU-heavy items: heddle redis, 2 workers"
  question = "Work spread over Redis: heddle vs Sidekiq 7.3, and 2 workers vs 1"
  s.answer question, heddle: "10,000 trivial items: heddle redis, 2 workers", target: 3,
                     details: "the targets of worker: :redis (docs/redis.md)"
  s.answer question, heddle: two, against: "200 CPU-heavy items: heddle redis, 1 worker", target: 1.7
  local = "200 CPU-heavy items: heddle process pool of 2, warm"
  s.answer "Work spread over Redis: 2 workers vs 2 local processes", heddle: two, against: local, target: 1 / 1.2
end
