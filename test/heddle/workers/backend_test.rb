# frozen_string_literal: true

require "test_helper"
require "timeout"

# A worker that ends under an item (the block calls Thread.exit, or the
# worker's thread is killed) fails that item with a clear error instead of
# leaving its map or promise waiting for ever; the pool replaces the
# worker (Workers::Backend#lost; a fiber pool's lost thread:
# Fibers::Backend#loop_lost).
class WorkersBackendTest < Minitest::Test
  include WorkerCounts

  def with_pool(worker, handler, size: 2)
    before = worker_counts
    pool = Heddle::Pool.new(worker: worker, size: size, &handler)
    Timeout.timeout(20) { yield pool }
    pool.shutdown
    assert_nothing_leaked(before)
  ensure
    pool&.shutdown(kill: true)
  end

  # Item 2 calls Thread.exit; its ensure block reports on cleaned.
  def exiting(cleaned)
    lambda do |x|
      Thread.exit if x == 2
      x
    ensure
      cleaned << x if x == 2
    end
  end

  %i[thread fiber].each do |worker|
    define_method("test_thread_exit_in_a_#{worker}_pool_item_fails_that_item_and_the_pool_goes_on") do
      cleaned = Queue.new
      with_pool(worker, exiting(cleaned)) do |pool|
        error = assert_raises(Heddle::Workers::Errors) { pool.map((1..5).to_a, fail_fast: false) }
        assert_equal [1], error.errors.keys
        assert_kind_of Heddle::Workers::WorkerDiedError, error.errors[1]
        assert_match(/item 2 \(index 1\) ended .*Thread\.exit/, error.errors[1].message)
        assert_equal [1, nil, 3, 4, 5], error.results
        assert_equal 2, cleaned.pop, "the item's ensure ran"
        assert_raises(Heddle::Workers::WorkerDiedError) { pool.map([1, 2, 3]) }
        assert_equal [1, 3, 4], pool.map([1, 3, 4]), "a new worker serves the pool"
      end
    end

    define_method("test_thread_exit_in_a_#{worker}_pool_item_rejects_submit_and_ask") do
      with_pool(worker, exiting(Queue.new)) do |pool|
        assert_raises(Heddle::Workers::WorkerDiedError) { pool.submit(2).value! }
        assert_raises(Heddle::Workers::WorkerDiedError) { pool.ask(2) }
        assert_equal [7, 8], [pool.submit(7).value!, pool.ask(8)]
      end
    end
  end

  def test_shutdown_with_kill_cancels_the_running_item_of_a_thread_pool
    started = Queue.new
    cleaned = Queue.new
    handler = lambda do |x|
      started << x
      sleep
    ensure
      cleaned << x
    end
    with_pool(:thread, handler, size: 1) do |pool|
      promise = pool.submit(1)
      started.pop
      pool.shutdown(kill: true)
      assert_raises(Heddle::Workers::CancelledError) { promise.value!(10) }
      assert_equal 1, cleaned.pop
    end
  end

  # Item 1 waits in one fiber while item 2 ends the pool's thread. Ruby
  # leaves item 1's fiber suspended; the pool unwinds it (its ensure runs)
  # and reports it, and a new thread serves the pool.
  def test_a_fiber_pool_item_running_when_its_thread_ends_fails_too
    started = Thread::Queue.new
    cleaned = Thread::Queue.new
    handler = lambda do |x|
      (started << x) && Thread::Queue.new.pop if x == 1
      started.pop && Thread.exit if x == 2
      x
    ensure
      cleaned << x if x == 1
    end
    with_pool(:fiber, handler) do |pool|
      error = assert_raises(Heddle::Workers::Errors) { pool.map([1, 2, 5], fail_fast: false) }
      assert_both_lost(error)
      assert_equal 1, cleaned.pop, "the abandoned item's ensure ran"
      assert_equal [3], pool.map([3])
    end
  end

  def assert_both_lost(error)
    assert_equal [0, 1], error.errors.keys.sort
    assert_match(/item 1 \(index 0\) was running when the thread of the pool's fibers ended/, error.errors[0].message)
    assert_match(/item 2 \(index 1\) ended the thread of the pool's fibers/, error.errors[1].message)
    assert_equal [nil, nil, 5], error.results
  end

  # A fiber pool made inside Heddle.run lives on the caller's loop: an item
  # that calls Thread.exit ends the caller's thread, and the pool with it.
  def test_thread_exit_in_a_fiber_pool_on_the_callers_loop_ends_that_thread_and_the_pool
    pools = Queue.new
    cleaned = Queue.new
    runner = Thread.new do
      Heddle.run do
        pool = Heddle::Pool.new(worker: :fiber, size: 2, &exiting(cleaned))
        pools << pool
        pool.map([1, 2, 3])
      end
    end
    assert runner.join(20), "the caller's thread ended"
    assert_nil runner.value
    assert_equal 2, cleaned.pop
    pool = pools.pop
    assert_predicate pool, :shutdown?
    assert_raises(Heddle::Workers::Error) { pool.submit(1) }
  end

  def test_a_fiber_pool_closes_its_loops_descriptors_at_shutdown
    GC.disable
    before = worker_counts.fds
    20.times do
      pool = Heddle::Pool.new(worker: :fiber, size: 2) { |x| x }
      pool.map([1, 2])
      pool.shutdown
    end
    # At most: a pool's loop may close the descriptors of loops whose
    # thread ended earlier (EventLoop::OpenLoops)
    assert_operator worker_counts.fds, :<=, before
  ensure
    GC.enable
  end
end
