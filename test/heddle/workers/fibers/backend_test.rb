# frozen_string_literal: true

require "test_helper"
require "timeout"

# The fiber pool's direct ask (a fiber of the pool's own loop hands the
# message to an idle pool fiber, no queue, job or promise) and its fall-backs.
class FiberPoolTest < Minitest::Test
  include InHeddleRun

  def with_run_pool(handler, size: 2, **options)
    in_heddle_run do
      pool = Heddle::Pool.new(worker: :fiber, size: size, **options, &handler)
      begin
        yield pool
      ensure
        pool.shutdown
      end
    end
  end

  def test_direct_ask_is_answered_by_a_pool_fiber
    fibers = []
    caller, answers = with_run_pool(->(x) { (fibers << Fiber.current) && (x * 2) }) do |pool|
      [Fiber.current, Array.new(5) { |i| pool.ask(i) }]
    end
    assert_equal [0, 2, 4, 6, 8], answers
    assert_equal 5, fibers.size
    refute_includes fibers, caller
  end

  def test_direct_ask_raises_the_block_error_with_item_and_index
    error, still = with_run_pool(->(x) { x == :bad ? raise(KeyError, "no #{x}") : x }) do |pool|
      [assert_raises(KeyError) { pool.ask(:bad) }, pool.ask(:good)]
    end
    assert_equal "no bad", error.message
    assert_equal :bad, error.item
    assert_equal 0, error.index
    assert_equal [nil], error.results
    assert(error.backtrace.any? { |line| line.include?(__FILE__) }, "backtrace points at the block")
    assert_equal :good, still
  end

  def test_direct_ask_keeps_item_timeout
    # (an Exception returned from Heddle.run's block would be raised: wrap it)
    error, = with_run_pool(->(x) { sleep(x) }, size: 1, item_timeout: 0.05) do |pool|
      [assert_raises(Heddle::Workers::TimeoutError) { pool.ask(5) }]
    end
    assert_equal 5, error.item
    assert_equal 0, error.index
  end

  def test_asks_from_many_fibers_share_a_small_pool
    # Three asking fibers, one pool fiber: asks wait for it (the queue path)
    # and every one gets its own answer.
    answers = with_run_pool(->(x) { (Heddle.wait(0) && x) + 100 }, size: 1) do |pool|
      askers = Array.new(3) { |i| Fiber.schedule { Array.new(4) { |j| pool.ask((i * 10) + j) } } }
      askers.map(&:await_result)
    end
    assert_equal [[100, 101, 102, 103], [110, 111, 112, 113], [120, 121, 122, 123]], answers
  end

  def test_ask_with_a_timeout_and_while_a_map_runs
    answers = with_run_pool(->(x) { (Heddle.wait(0) && x) * 3 }, size: 3) do |pool|
      mapper = Fiber.schedule { pool.map((1..50).to_a) }
      asked = pool.ask(7, timeout: 5)
      [asked, mapper.await_result, pool.ask(8)]
    end
    assert_equal [21, (1..50).map { |x| x * 3 }, 24], answers
  end

  def test_map_from_another_thread_into_a_pool_on_a_run
    pool_ready = Thread::Queue.new
    release = Thread::Queue.new
    runner = Thread.new do
      Heddle.run do
        pool = Heddle::Pool.new(worker: :fiber, size: 4) { |x| x + 1 }
        pool_ready << pool
        # Park this fiber (not the loop) until the other thread is done.
        release.pop
        pool.shutdown
      end
    end
    pool = Timeout.timeout(5) { pool_ready.pop }
    results = Timeout.timeout(5) { [pool.map((1..20).to_a), pool.ask(41), pool.submit(1).value!(5)] }
    assert_equal [(2..21).to_a, 42, 2], results
  ensure
    release << :go
    runner.join(5) or flunk("the run did not end after shutdown")
  end

  def test_an_interrupted_ask_does_not_wake_a_later_wait
    # Without the caller's withdrawal, the late answer (:slow, after 0.2 s)
    # would end the caller's next wait early instead of its own timeout.
    waited = with_run_pool(->(x) { sleep(0.2) && x }, size: 1) do |pool|
      assert_raises(Timeout::Error) { Timeout.timeout(0.05) { pool.ask(:slow) } }
      [Heddle.await_resume!(within: 0.6, timeout_result: :timed_out), pool.ask(:next)]
    end
    assert_equal %i[timed_out next], waited
  end

  def test_direct_ask_allocates_nothing
    allocated = with_run_pool(->(x) { x }, size: 3) do |pool|
      pool.ask(1)
      before = GC.stat(:total_allocated_objects)
      1_000.times { |i| pool.ask(i) }
      GC.stat(:total_allocated_objects) - before
    end
    # Through a job and a promise an ask allocated 11 objects; leave room for
    # other threads of the test process allocating meanwhile.
    assert_operator allocated, :<, 500
  end

  def test_shutdown_inside_the_run_ends_idle_fibers_and_refuses_asks
    error, = with_run_pool(->(x) { x }, size: 5) do |pool|
      pool.ask(1)
      pool.shutdown
      [assert_raises(Heddle::Workers::Error) { pool.ask(2) }]
    end
    assert_match(/shut down/, error.message)
  end

  def test_kill_from_outside_cancels_queued_items
    gate = Thread::Queue.new
    pool = Heddle::Pool.new(worker: :fiber, size: 1) { |x| gate.pop && x }
    pool.submit(1)
    queued = pool.submit(2)
    pool.shutdown(kill: true)
    assert_raises(Heddle::Workers::CancelledError) { queued.value!(5) }
  ensure
    gate << :go << :go
  end
end
