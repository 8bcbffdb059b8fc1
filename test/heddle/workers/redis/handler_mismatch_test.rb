# frozen_string_literal: true

require "test_helper"

# Workers started with handlers other than a pool's: they take none of its
# items (they never read its stream), and the caller's map does not wait in
# silence: while live workers all lack the handler, its items fail with
# NoWorkerError naming it. A worker that knows the handler serves the same
# pool as soon as it starts.
class RedisHandlerMismatchTest < Minitest::Test
  include RedisFixture::TestHelpers
  include RedisFixture::EntryHolding

  OTHER = File.expand_path("../../../support/redis_other_handlers.rb", __dir__)

  def setup
    super
    @server = RedisFixture::Server.new.start
  end

  def teardown
    super
    @workers&.each(&:destroy)
    @server&.destroy
  end

  def worker(**options)
    (@workers ||= []) << RedisFixture::Worker.new(@server, **options).ready
    @workers.last
  end

  def failed_map(pool, items)
    error = assert_raises(Heddle::Workers::Errors) { bounded { pool.map(items, fail_fast: false) } }
    assert_equal [Heddle::Workers::Redis::NoWorkerError], error.errors.values.map(&:class).uniq
    assert_equal (0...items.size).to_a, error.errors.keys.sort, "every item fails, none is left waiting"
    error
  end

  def mapping(pool, items)
    thread = Thread.new { pool.map(items, fail_fast: false) }
    thread.report_on_exception = false
    thread
  end

  def kill_while_running(worker, pool)
    RedisFixture.wait_for("a batch of #{worker.pid}") { worker.text.include?("done in") }
    wait_until_running(worker, pool)
    worker.signal("KILL")
    worker.wait
  end

  # [consumers, entries read] of the pool's group: who read its stream.
  def readers(pool)
    client = @server.client
    group = client.call("XINFO", "GROUPS", pool.instance_variable_get(:@backend).keys[:items]).first
    group = group.each_slice(2).to_h unless group.is_a?(Hash)
    [group["consumers"], group["entries-read"].to_i]
  ensure
    client&.close
  end

  def test_a_worker_of_other_handlers_takes_none_of_the_items_and_they_fail_naming_the_handler
    other = worker(requires: [OTHER])
    pool = redis_pool(:"test.pid", server: @server)
    error = failed_map(pool, (0...6).to_a)
    assert_match(/no worker knows the handler; the live workers .* were started without it/, error.errors[0].message)
    assert_equal [0, 0], readers(pool), "no worker read the pool's stream"
    refute_match(/test\.pid/, other.text.lines.drop(1).join, "the other worker logged no batch of it")
    assert_equal([[7, other.pid]], bounded { redis_pool(:"other.pid", server: @server).map([7]) })
  end

  def test_the_same_pool_serves_once_a_worker_that_knows_the_handler_starts
    worker(requires: [OTHER])
    pool = redis_pool(:"test.pid", server: @server)
    failed_map(pool, [0])
    knowing = worker
    assert_equal([[0, knowing.pid], [1, knowing.pid]], bounded { pool.map([0, 1]) })
  end

  def test_when_the_only_worker_that_knows_the_handler_dies_its_items_fail_naming_it
    knowing = worker
    other = worker(requires: [OTHER])
    pool = redis_pool(:"test.slow", server: @server)
    items = (0...60).map { |n| [n, 0.05] }
    map = mapping(pool, items)
    kill_while_running(knowing, pool)
    error = assert_raises(Heddle::Workers::Errors) { bounded { map.value } }
    assert_equal [Heddle::Workers::Redis::NoWorkerError], error.errors.values.map(&:class).uniq
    assert_only_ran_on(knowing, error, items.size)
    refute_match(/test\.slow/, other.text.lines.drop(1).join)
  end

  def assert_only_ran_on(knowing, error, count)
    done = error.results.compact
    assert_equal [knowing.pid], done.map(&:last).uniq, "only the worker that knew the handler ran its items"
    assert_equal count, done.size + error.errors.size, "each item a result or an error"
    refute_empty done, "the results of the batch done before the kill are kept"
  end
end
