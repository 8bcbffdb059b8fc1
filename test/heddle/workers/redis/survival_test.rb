# frozen_string_literal: true

require "test_helper"

# What worker: :redis must survive, each test on a redis-server of its own
# with `heddle worker` processes it starts, kills, stops and restarts.
# Visibility timeouts are 1 s, so a dead worker's items move within seconds.
class RedisSurvivalTest < Minitest::Test
  include RedisFixture::TestHelpers
  include RedisFixture::EntryHolding

  def setup
    super
    @server = RedisFixture::Server.new.start
  end

  def teardown
    super
    @workers&.each(&:destroy)
    @server&.destroy
  end

  def workers(count, server: @server, **options)
    @workers ||= []
    started = Array.new(count) { RedisFixture::Worker.new(server, **options) }
    @workers.concat(started)
    started.each(&:ready)
  end

  def slow_items(count, seconds = 0.03) = (0...count).map { |n| [n, seconds] }

  def mapping(pool, items, **options)
    thread = Thread.new { pool.map(items, **options) }
    thread.report_on_exception = false
    thread
  end

  def value_of(thread, seconds = RedisFixture::WAIT)
    raise Minitest::Assertion, "the map did not end within #{seconds} s: a hang" unless thread.join(seconds)

    thread.value
  rescue StandardError => e
    e
  end

  def wait_for_log(worker, *texts)
    texts.each { |text| RedisFixture.wait_for("#{worker.pid} to log #{text}") { worker.text.include?(text) } }
  end

  def wait_for_batch(worker)
    RedisFixture.wait_for("a batch done by #{worker.pid}") { worker.text.include?("done in") }
  end

  # The pid of the victim's lane process, once it holds an entry of the pool.
  def wait_for_lane_process(victim, pool)
    client = @server.client
    RedisFixture.wait_for("a lane process of worker #{victim.pid} to hold an entry") do
      _count, _first, _last, owners = client.call("XPENDING", items_key(pool), "heddle")
      Array(owners).map { |consumer, _| Integer(consumer.split(":")[-2]) }
                   .find { |pid| pid != victim.pid && ProcStat.fields(pid)[1] == victim.pid.to_s }
    end
  ensure
    client&.close
  end

  # kill -9 of the worker's main process; waits for its lane process to end with it.
  def kill_main_process(victim, lane)
    victim.signal("KILL")
    victim.wait
    RedisFixture.wait_for("lane process #{lane} to end with its main process") { ended?(lane) }
  end

  # Gone, or a zombie its new parent has not reaped yet.
  def ended?(pid)
    ProcStat.state(pid) == "Z"
  rescue SystemCallError
    true
  end

  def test_a_worker_killed_mid_map_loses_no_item
    a, b = workers(2)
    pool = redis_pool(:"test.slow", server: @server)
    # Items of 0.1 s: the entry the killed worker holds lasts long enough
    # that a stall of this (loaded) test process does not let it finish first.
    items = slow_items(30, 0.1)
    map = mapping(pool, items)
    wait_for_batch(a)
    wait_until_running(a, pool)
    a.signal("KILL")
    a.wait
    results = value_of(map)
    assert_equal items.map(&:first), results.map(&:first), "every item once, in order"
    assert_empty results.map(&:last) - [a.pid, b.pid]
    # The survivor logs the entry it took over after delivering it: maybe after the map returned.
    RedisFixture.wait_for("the survivor to log the entry it took over") { b.text.include?("taken over (delivery 2)") }
  end

  # kill -9 of a `--worker process` worker's main process: its lane process
  # ends too, without a line, and hands its entry back; the survivor logs
  # taking it over. The items wait for a gate, so the lane is inside its entry
  # when it ends, and a 600 s visibility timeout leaves only the hand-back
  # and the lapsed heartbeat to move it.
  def test_a_process_worker_killed_mid_map_ends_its_lanes_silently_and_the_survivor_takes_over
    victim, = workers(1, args: %w[--worker process])
    survivor, = workers(1)
    pool = redis_pool(:"test.gate", server: @server, visibility_timeout: 600)
    gate = File.join(@server.dir, "gate")
    map = mapping(pool, [gate] * 6)
    logged = victim.text
    kill_main_process(victim, wait_for_lane_process(victim, pool))
    File.write(gate, "")
    assert_equal [true] * 6, value_of(map)
    assert_equal logged, victim.text, "the killed worker's lane process logged nothing"
    RedisFixture.wait_for("the survivor to log the entry it took over") { survivor.text.include?("taken over") }
    assert_equal 1, survivor.text.scan(/taken over \(delivery \d+\)/).size, survivor.text
  end

  def test_a_stopped_workers_late_results_are_dropped
    a, b = workers(2)
    pool = redis_pool(:"test.slow", server: @server)
    items = slow_items(40)
    map = mapping(pool, items)
    wait_for_batch(a)
    stop_while_running(a, pool)
    results = value_of(map)
    assert_equal items.map(&:first), results.map(&:first)
    a.signal("CONT")
    # Dropped at delivery, or never made: a lane whose process was taken for
    # dead drops the entry before its next item (with nothing to drop when it
    # stopped just after a delivery).
    RedisFixture.wait_for("the stopped worker's late results to be dropped") do
      a.text.match?(/the map is over|\d+ dropped|taken over: this worker was taken for dead/)
    end
    RedisFixture.wait_for("the other worker to log the entry it took over") { b.text.include?("taken over") }
    assert_equal [[0, 0.0], [1, 0.0]].map(&:first), pool.map([[0, 0.0], [1, 0.0]]).map(&:first)
  end

  # A frozen worker (SIGSTOP, a paused VM) looks dead once its heartbeat
  # lapses, whatever its state: its entry moves long before the visibility
  # timeout, the map ends while it is still stopped, and when it wakes it
  # drops what it held and serves again.
  def test_a_frozen_workers_entry_moves_when_its_heartbeat_lapses_and_it_drops_it_on_waking
    a, = workers(2)
    pool = Heddle::Pool.new(worker: :redis, handler: :"test.slow", url: @server.url, visibility_timeout: 600)
    items = slow_items(40)
    map = mapping(pool, items)
    wait_for_batch(a)
    stop_while_running(a, pool)
    assert_equal items.map(&:first), value_of(map).map(&:first)
    assert_equal "T", ProcStat.state(a.pid), "the map ended while the worker was still stopped"
    a.signal("CONT")
    wait_for_log(a, "taken for dead", "taken over: this worker was taken")
    assert_equal (0...20).to_a, pool.map(slow_items(20, 0)).map(&:first), "it serves again"
  ensure
    pool&.shutdown
  end

  def test_a_redis_restart_mid_map_completes_or_fails_naming_the_lost_connection
    @server.destroy
    @server = RedisFixture::Server.new(aof: true).start
    workers(2)
    pool = redis_pool(:"test.slow", server: @server, reconnect_timeout: 20)
    items = slow_items(60)
    map = mapping(pool, items)
    wait_for_batch(@workers.first)
    @server.restart
    outcome = value_of(map, 60)
    if outcome.is_a?(Exception)
      assert_kind_of Heddle::Workers::Redis::ConnectionLostError, outcome
      assert_match(/lost the connection to redis:/, outcome.message)
    else
      assert_equal items.map(&:first), outcome.map(&:first)
    end
  end

  def test_redis_gone_for_good_fails_the_map_naming_the_lost_connection
    workers(1)
    pool = redis_pool(:"test.slow", server: @server, reconnect_timeout: 1)
    map = mapping(pool, slow_items(40))
    wait_for_batch(@workers.first)
    @server.stop
    error = value_of(map)
    assert_kind_of Heddle::Workers::Redis::ConnectionLostError, error
    assert_match(%r{lost the connection to redis://127\.0\.0\.1:#{@server.port}/0 .* within 1 s}, error.message)
    assert_kind_of Integer, error.index
    assert_operator error.results.compact.size, :>=, 1, "results made before the loss are kept"
  end

  # A caller in a process of its own that submits slow items on a pool
  # with a 2 s ttl (the least allowed), prints the pool's id and sleeps until killed.
  def start_caller(reader_writer)
    script = <<~RUBY
      require "heddle"
      require #{RedisFixture::HANDLERS.inspect}
      pool = Heddle::Pool.new(worker: :redis, handler: :"test.slow", url: #{@server.url.inspect}, ttl: 2,
                            visibility_timeout: 1)
      20.times { |n| pool.submit([n, 0.1]) }
      puts pool.instance_variable_get(:@backend).pool_id
      $stdout.flush
      sleep
    RUBY
    reader, writer = reader_writer
    pid = Process.spawn(RbConfig.ruby, *LibRoots::FLAGS, "-e", script, out: writer)
    writer.close
    [pid, reader.gets.to_s.strip]
  end

  def test_a_dead_callers_keys_expire_and_workers_move_on
    worker, = workers(1)
    pipe = IO.pipe
    caller_pid, pool_id = start_caller(pipe)
    wait_for_batch(worker)
    Process.kill("KILL", caller_pid)
    Process.wait(caller_pid)
    keys = %w[items results meta].map { |k| "heddle:pool:#{pool_id}:#{k}" }
    client = @server.client
    RedisFixture.wait_for("the dead caller's keys to expire") { client.call("EXISTS", *keys).zero? }
    assert_equal [4, 9], redis_pool(:"test.square", server: @server).map([2, 3])
  ensure
    pipe&.each(&:close)
    client&.close
  end

  def test_a_worker_without_the_handlers_file_fails_the_items_naming_them_and_the_handler
    workers(1, requires: [File.join(__dir__, "../../../support/redis_other_handlers.rb")])
    error = assert_raises(Heddle::Workers::Redis::NoWorkerError) do
      bounded { redis_pool(:"test.square", server: @server).map([5, 6]) }
    end
    assert_equal [0, 5], [error.index, error.item]
    assert_match(/item 5 \(index 0\) of handler :"test.square": no worker knows the handler/, error.message)
  end

  def test_pools_of_different_handlers_do_not_see_each_others_items
    square_worker, = workers(1)
    other_worker, = workers(1, requires: [File.join(__dir__, "../../../support/redis_other_handlers.rb")])
    mine = mapping(redis_pool(:"test.pid", server: @server), (0...100).to_a)
    other = mapping(redis_pool(:"other.pid", server: @server), (0...100).to_a)
    assert_equal [square_worker.pid], value_of(mine).map(&:last).uniq
    assert_equal [other_worker.pid], value_of(other).map(&:last).uniq
  end

  def test_sigterm_drains_finishing_the_running_batch
    first, = workers(1)
    pool = redis_pool(:"test.slow", server: @server)
    items = slow_items(30, 0.05)
    map = mapping(pool, items)
    wait_for_batch(first)
    first.signal("TERM")
    assert_predicate first.wait, :success?
    workers(1)
    assert_equal items.map(&:first), value_of(map).map(&:first)
    assert_match(/draining \(SIGTERM\).*stopped/m, first.text)
    refute_match(/released/, first.text)
  end

  def test_a_second_sigterm_hands_the_running_batch_back_at_once
    first, = workers(1)
    # A visibility timeout far beyond the wait below: only a release lets another worker take the entry.
    pool = redis_pool(:"test.slow", server: @server, visibility_timeout: 600, size: 1)
    items = slow_items(6, 0.5)
    map = mapping(pool, items)
    client = @server.client
    RedisFixture.wait_for("an entry to be running") { client.call("XPENDING", items_key(pool), "heddle")[0].positive? }
    first.signal("TERM")
    RedisFixture.wait_for("the worker to drain") { first.text.include?("draining") }
    first.signal("TERM")
    first.wait
    workers(1)
    assert_equal items.map(&:first), value_of(map).map(&:first)
    assert_match(/released after/, first.text)
  ensure
    client&.close
  end

  def test_process_and_fiber_workers
    process_worker, = workers(1, args: %w[--worker process --concurrency 2])
    assert_equal (0...200).map { |n| n * n }, redis_pool(:"test.square", server: @server).map(0...200)
    pids = redis_pool(:"test.slow", server: @server).map(slow_items(40, 0.02)).map(&:last).uniq
    refute_includes pids, process_worker.pid, "items run in the forked lane processes"
    process_worker.destroy
    workers(1, args: %w[--worker fiber --concurrency 4])
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    assert_equal [0.3] * 8, redis_pool(:"test.sleep", server: @server, size: 4).map([0.3] * 8)
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :>, 0.3
  end
end
