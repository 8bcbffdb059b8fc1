# frozen_string_literal: true

require "test_helper"
require "minitest/mock"

# worker: :redis as a caller sees it, with two `heddle worker` processes on a
# real redis-server: the same interface and errors as the local backends.
class RedisPoolTest < Minitest::Test
  include RedisFixture::TestHelpers

  # Items of a class only the caller has (workers cannot load them).
  CallerOnly = Struct.new(:n)

  def setup
    super
    RedisFixture.shared_workers
  end

  def test_map_returns_results_in_input_order
    pool = redis_pool(:"test.square")
    assert_equal (1..500).map { |n| n * n }, pool.map(1..500)
    assert_equal [], pool.map([])
  end

  def test_items_spread_over_both_workers
    # 3 s of items: more than any item an earlier test left running on one worker.
    pids = redis_pool(:"test.slow").map((0...60).map { |n| [n, 0.05] }).map(&:last).uniq
    assert_equal RedisFixture.shared_workers.map(&:pid).sort, pids.sort
  end

  def test_submit_returns_a_promise
    pool = redis_pool(:"test.square")
    promises = [3, 4].map { |n| pool.submit(n) }
    assert_equal([9, 16], promises.map { |p| p.value!(RedisFixture::WAIT) })
    assert_equal 49, pool.ask(7, timeout: RedisFixture::WAIT)
  end

  def test_heddle_map
    assert_equal [1, 4, 9], Heddle.map([1, 2, 3], worker: :redis, handler: :"test.square",
                                                  url: RedisFixture.shared.url)
  end

  # Heddle.map checks the Redis options once and hands them on: the pool
  # and its backend do not check them again.
  def test_heddle_map_checks_the_redis_options_once
    calls = 0
    check = Heddle::Workers::Redis::Backend.method(:validate!)
    Heddle::Workers::Redis::Backend.stub(:validate!, ->(*args) { (calls += 1) && check.call(*args) }) do
      assert_equal [4], Heddle.map([2], worker: :redis, handler: :"test.square", url: RedisFixture.shared.url)
    end
    assert_equal 1, calls
  end

  # As a RemoteError naming its class: bytes from Redis never choose the
  # class the caller raises.
  def test_a_workers_exception_comes_back_as_a_remote_error_with_its_class_host_and_pid
    error = assert_raises(Heddle::Workers::Redis::RemoteError) { redis_pool(:"test.boom").map([2, 4, 5, 6]) }
    assert_equal ["RedisTestError", "RedisTestError: boom 5"], [error.remote_class, error.message]
    assert_equal [2, 5], [error.index, error.item]
    assert_includes RedisFixture.shared_workers.map(&:pid), error.worker_pid
    assert_equal Socket.gethostname, error.worker_host
    assert_match(/redis_handlers\.rb/, error.backtrace.first)
  end

  def test_collected_errors_keep_every_result
    error = assert_raises(Heddle::Workers::Errors) { redis_pool(:"test.boom").map([1, 2, 3, 4], fail_fast: false) }
    assert_equal [0, 2], error.errors.keys.sort
    assert_equal [nil, 2, nil, 4], error.results
    assert_equal "RedisTestError", error.errors[2].remote_class
  end

  # Thread.exit is no exception: before, it ended the worker's only lane, the
  # worker stopped serving and the map waited for ever.
  def test_thread_exit_in_a_handler_fails_its_item_and_the_worker_starts_another_lane
    error = bounded do
      redis_pool(:"test.thread_exit").map([0, 1, 2, 3], fail_fast: false)
    rescue Heddle::Workers::Errors => e
      e
    end
    assert_kind_of Heddle::Workers::Errors, error
    assert_equal [0, nil, 2, nil], error.results
    assert_equal [Heddle::Workers::WorkerDiedError] * 2, error.errors.values_at(1, 3).map(&:class)
    assert_match(/ended its worker's lane thread \(Thread\.exit/, error.errors[1].message)
    squares = bounded { redis_pool(:"test.square").map(1..40) }
    assert_equal((1..40).map { |n| n * n }, squares)
    assert RedisFixture.shared_workers.all?(&:alive?), "both workers still serve"
  end

  def test_an_error_class_the_caller_lacks_comes_back_as_a_remote_error
    error = assert_raises(Heddle::Workers::Redis::RemoteError) { redis_pool(:"test.foreign_error").map([1]) }
    assert_equal "WorkerOnlyError", error.remote_class
    assert_match(/only the worker knows 1/, error.message)
    assert_equal [0, 1], [error.index, error.item]
  end

  def test_item_timeout_runs_on_the_worker
    error = assert_raises(Heddle::Workers::TimeoutError) do
      redis_pool(:"test.sleep", item_timeout: 0.1).map([0, 5])
    end
    assert_equal [1, 5], [error.index, error.item]
    assert_equal [0, nil], error.results
  end

  def test_map_timeout_keeps_the_results_already_made
    pool = redis_pool(:"test.sleep")
    error = assert_raises(Heddle::Workers::TimeoutError) { pool.map([0, 0, 1.5], timeout: 0.5) }
    assert_match(/did not finish within 0.5 s/, error.message)
    assert_equal [0, 0, nil], error.results
    assert_equal [0, 0], pool.map([0, 0])
  end

  def test_an_item_marshal_cannot_carry_fails_at_the_caller_naming_it_and_the_handler
    error = assert_raises(Heddle::Workers::UnmarshalableError) { redis_pool(:"test.square").map([1, -> {}]) }
    assert_equal 1, error.index
    assert_match(/item #<Proc.*\(index 1\) cannot be sent to the workers of handler :"test.square"/, error.message)
    collected = assert_raises(Heddle::Workers::Errors) do
      redis_pool(:"test.square").map([2, proc {}, 3], fail_fast: false)
    end
    assert_equal [4, nil, 9], collected.results
  end

  # JSON carries plain data only: an object fails at the caller, before anything is sent.
  def test_an_item_json_cannot_carry_fails_at_the_caller_naming_its_type
    error = assert_raises(Heddle::Workers::UnmarshalableError) { redis_pool(:"test.square").map([CallerOnly.new(7)]) }
    assert_match(/item #<struct RedisPoolTest::CallerOnly n=7> \(index 0\)/, error.message)
    assert_match(/item is a RedisPoolTest::CallerOnly, which format: :json does not carry/, error.message)
    assert_equal CallerOnly.new(7), error.item
    error = assert_raises(Heddle::Workers::UnmarshalableError) { redis_pool(:"test.square").map([{ a: 1 }]) }
    assert_match(/has a Symbol key :a; format: :json takes String keys/, error.message)
  end

  def test_a_result_json_cannot_carry_fails_naming_the_handler
    error = assert_raises(Heddle::Workers::UnmarshalableError) { redis_pool(:"test.proc").map([1]) }
    assert_match(/the result of handler :"test.proc" for item 1 \(a Proc\) cannot be sent back/, error.message)
    assert_equal 0, error.index
  end

  def test_an_unknown_handler_name_is_an_argument_error_at_the_call
    error = assert_raises(ArgumentError) { redis_pool(:"test.nope") }
    assert_match(/unknown handler :"test.nope"/, error.message)
    assert_raises(ArgumentError) { Heddle::Pool.new(worker: :redis, handler: :"test.square", url: "http://x") }
    assert_raises(ArgumentError) { Heddle::Pool.new(worker: :redis, handler: :"test.square") { |x| x } }
    assert_raises(ArgumentError) { Heddle::Pool.new(worker: :thread, url: "redis://127.0.0.1") { |x| x } }
    assert_raises(ArgumentError) { redis_pool(:"test.square", visibility_timeout: 0) }
  end

  def test_a_pool_that_is_shut_down_deletes_its_keys_and_refuses_work
    pool = redis_pool(:"test.square")
    keys = pool.instance_variable_get(:@backend).keys
    pool.map([1])
    pool.shutdown
    client = RedisFixture.shared.client
    assert_equal 0, client.call("EXISTS", keys[:items], keys[:results], keys[:meta])
    assert_raises(Heddle::Workers::Error) { pool.map([1]) }
  ensure
    client&.close
  end
end
