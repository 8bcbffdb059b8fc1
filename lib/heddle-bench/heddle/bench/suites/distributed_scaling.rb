# frozen_string_literal: true

require_relative "../../bench"
require_relative "support/redis_fleet"
require_relative "support/sidekiq_peer"

# worker: :redis with 1, 2 and 4 workers beside Sidekiq 7.3 with as many
# processes on the same trivial jobs, and a worker killed with kill -9 at the
# default visibility timeout: how long a dead worker costs.
Heddle::Bench.suite(:distributed_scaling) do |s|
  s.title "Distributed maps: 1, 2 and 4 Redis workers beside Sidekiq; a worker killed at the default timeout"
  s.description "Seconds per map (lower is better; items per second = items / seconds). Workers are separate " \
                "processes on this machine standing in for machines, on a redis-server of the suite's own " \
                "(127.0.0.1), started in the row's setup (timed apart), with one untimed map before. Trivial " \
                "items (item * 2): heddle workers run 1 thread lane each, Sidekiq processes its default 5 " \
                "threads, jobs that RPUSH their result and a caller that push_bulks and BLMPOPs every result " \
                "(as in the distributed suite). The killed row: 200 CPU-heavy items (tarai, ~8 ms) on 2 workers " \
                "with the default visibility_timeout (30 s), one worker killed with kill -9 at half the " \
                "undisturbed time: the heartbeat, not the timeout, moves its entries."
  s.kind :duration
  s.unit "seconds per map"
  s.trials 5
  s.budget 300

  fleet = Heddle::Bench::RedisFleet
  sidekiq = Heddle::Bench::SidekiqPeer
  map = -> { Heddle::Bench::MapSuite } # map.rb loads after this file
  count = ->(ctx) { ctx.quick? ? 500 : 5_000 }
  checked = ->(expected, results) { { items: results.size, failures: results == expected ? 0 : 1 } }
  release = lambda do |state|
    state[:pool]&.shutdown(kill: true)
    fleet.stop(state[:pids] || [])
  end

  [1, 2, 4].each do |workers|
    plural = workers == 1 ? "" : "s"
    s.row "5,000 trivial items: heddle redis, #{workers} worker#{plural}", library: "heddle",
                                                                           compare: "trivial #{workers}",
                                                                           params: { workers: workers },
                                                                           estimate: 0.3 do |r|
      r.code "# setup: heddle worker --redis URL --require handlers.rb  (x#{workers})\n" \
             "pool = Heddle::Pool.new(worker: :redis, handler: :\"bench.trivial\", url: URL)\npool.map(items)"
      r.setup do |ctx|
        items = Array.new(count.call(ctx)) { |i| i }
        pids = fleet.start_workers(workers)
        pool = Heddle::Pool.new(worker: :redis, handler: :"bench.trivial", url: fleet.url)
        pool.map(items.first(workers * 4))
        { items: items, expected: items.map { |i| map.call.trivial(i) }, pids: pids, pool: pool }
      end
      r.run { |state, _ctx| checked.call(state[:expected], state[:pool].map(state[:items])) }
      r.teardown { |state, _ctx| release.call(state) }
    end

    s.row "5,000 trivial items: Sidekiq 7.3, #{workers} process#{'es' unless workers == 1}",
          library: "sidekiq", compare: "trivial #{workers}", params: { workers: workers }, requires: ["sidekiq"],
          estimate: 2.5 do |r|
      r.code "# setup: sidekiq -r job.rb -q heddle_bench  (x#{workers})\n" \
             "Sidekiq::Client.push_bulk(\"class\" => TrivialJob, \"args\" => items.each_with_index.map { ... })\n" \
             "BLMPOP results until every index has come back"
      r.setup do |ctx|
        sidekiq.configure
        items = Array.new(count.call(ctx)) { |i| i }
        pids = sidekiq.start(workers)
        sidekiq.map(items.first(100))
        { items: items, expected: items.map { |i| map.call.trivial(i) }, pids: pids }
      end
      r.run { |state, _ctx| checked.call(state[:expected], sidekiq.map(state[:items])) }
      r.teardown { |state, _ctx| release.call(state) }
    end
  end

  s.row "200 CPU-heavy items: heddle redis, 2 workers, one killed at the half, visibility 30 s",
        library: "heddle", params: { workers: 2, killed: true }, estimate: 4.0 do |r|
    r.code "# setup: 2 workers; one undisturbed map, timed: t\n" \
           "Thread.new { sleep t / 2; Process.kill(\"KILL\", worker_pid) }\npool.map(items)  # visibility_timeout: 30"
    r.setup do |ctx|
      items = Array.new(ctx.quick? ? 20 : 200) { |i| i }
      pids = fleet.start_workers(2)
      pool = Heddle::Pool.new(worker: :redis, handler: :"bench.heavy", url: fleet.url)
      pool.map(items.first(8))
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      expected = pool.map(items)
      { items: items, expected: expected, pids: pids, pool: pool,
        undisturbed: Process.clock_gettime(Process::CLOCK_MONOTONIC) - started }
    end
    r.run do |state, _ctx|
      killer = Thread.new do
        sleep state[:undisturbed] / 2
        fleet.signal("KILL", state[:pids].first)
      end
      results = state[:pool].map(state[:items])
      killer.join
      checked.call(state[:expected], results).merge(undisturbed_seconds: state[:undisturbed])
    end
    r.teardown { |state, _ctx| release.call(state) }
  end
end
