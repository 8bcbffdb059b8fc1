# frozen_string_literal: true

require "test_helper"
require "timeout"

class PromiseFibersTest < Minitest::Test
  def test_fiber_waiters_yield_to_other_fibers
    promise = Heddle::Promise.new
    ticks = 0
    waiters = Array.new(3) { Heddle.concurrently { promise.value(5) } }
    Heddle.concurrently do
      3.times do
        ticks += 1
        Heddle.wait(0)
      end
      promise.fulfill(:done)
    end
    assert_equal([:done] * 3, waiters.map { |e| e.await_result(within: 5) })
    assert_equal 3, ticks # the ticker ran while all three fibers waited
  end

  def test_rejection_raises_in_every_fiber_waiter
    promise = Heddle::Promise.new
    # Each waiter ends with the error, and returns its message instead of
    # raising it (a concurrent proc that raises is logged to $stderr).
    waiters = Array.new(3) do
      Heddle.concurrently do
        promise.value!(5)
      rescue IndexError => e
        e.message
      end
    end
    Heddle.concurrently { promise.reject(IndexError.new("gone")) }
    messages = waiters.map { |evaluation| evaluation.await_result(within: 5) }
    assert_equal ["gone"] * 3, messages
  end

  def test_a_thread_wakes_a_fiber
    promise = Heddle::Promise.new
    waiter = Heddle.concurrently { promise.value(5) }
    thread = Thread.new do
      sleep 0.01
      promise.fulfill(:from_thread)
    end
    assert_equal :from_thread, waiter.await_result(within: 5)
    assert thread.join(5)
  end

  def test_threads_wake_fibers_in_a_forked_child
    skip "no fork here" unless Process.respond_to?(:fork)
    warm = Heddle::Promise.new # the parent's mailbox is in use before the fork
    Heddle.concurrently { warm.value(5) }
    Thread.new { warm.fulfill(1) }.join(5)
    pid = fork do
      promise = Heddle::Promise.new
      waiter = Heddle.concurrently { promise.value(5) }
      Thread.new { promise.fulfill(:child) }
      exit!(waiter.await_result(within: 5) == :child ? 0 : 1)
    end
    _, status = Timeout.timeout(10) { Process.wait2(pid) }
    assert_predicate status, :success?
  end

  def test_a_cancelled_waiter_leaves_the_promise
    promise = Heddle::Promise.new
    waiter = Heddle.concurrently { promise.value }
    Heddle.wait(0)
    waiter.conclude_to(:cancelled)
    assert_nil promise.instance_variable_get(:@waiters) # unregistered on the way out
    promise.fulfill(:late)
    assert_equal :cancelled, waiter.await_result(within: 5)
  end

  def test_fiber_timeouts
    promise = Heddle::Promise.new
    waiter = Heddle.concurrently { [promise.wait(0.01), promise.value(0.01)] }
    assert_equal [false, nil], waiter.await_result(within: 5)
    bang = Heddle.concurrently do
      promise.value!(0.01)
    rescue Heddle::Promise::TimeoutError => e
      e.class
    end
    assert_equal Heddle::Promise::TimeoutError, bang.await_result(within: 5)
  end

  def test_a_disarmed_waker_does_not_wake_the_next_wait
    evaluation = Heddle.concurrently do
      waker = Heddle::Promises::FiberWaker.current(Heddle::Evaluation.current)
      waker.arm(Heddle::Evaluation.current).disarm
      Thread.new { waker.resume! }.join(5) # a late wake-up from another thread
      waker.resume!                        # and one from this thread
      Heddle.await_resume!(within: 0.05, timeout_result: :not_woken)
    end
    assert_equal :not_woken, evaluation.await_result(within: 5)
  end

  def test_root_fiber_runs_its_loop_while_waiting
    promise = Heddle::Promise.new
    Heddle.concurrently do
      Heddle.wait(0.01)
      promise.fulfill(:from_fiber)
    end
    # Parking the thread here would starve the fiber that fulfils the promise.
    assert_equal :from_fiber, Timeout.timeout(5) { promise.value(5) }
  end

  def test_evaluation_to_promise
    assert_equal 42, Heddle.concurrently { 6 * 7 }.to_promise.value(5)
    slow = Heddle.concurrently do
      Heddle.wait(0.01)
      :slow
    end
    assert_equal :slow, Heddle::Promise.from(slow).value(5)
    assert_raises(TypeError) { Heddle::Promise.from(:nope) }
  end

  def test_a_failed_evaluation_rejects_its_promise
    error = nil
    capture_io do # the core logs the proc's error to $stderr
      promise = Heddle.concurrently { raise ArgumentError, "broken" }.to_promise
      error = assert_raises(ArgumentError) { promise.value!(5) }
    end
    assert_equal "broken", error.message
  end

  def test_a_thread_waits_for_an_evaluation_of_another_thread
    promise = nil
    runner = Thread.new do
      evaluation = Heddle.concurrently do
        Heddle.wait(0.02)
        :elsewhere
      end
      promise = evaluation.to_promise
      evaluation.await_result(within: 5)
    end
    sleep 0.001 until promise || !runner.alive?
    assert_equal :elsewhere, promise.value(5)
    assert runner.join(5)
  end

  def test_async_fibers_wait_without_blocking_their_thread
    require "async"
    promise = Heddle::Promise.new
    values = Timeout.timeout(10) do
      Async do |task|
        waiters = Array.new(3) { task.async { promise.value(5) } }
        task.async { promise.fulfill(:async) }
        waiters.map(&:wait)
      end.wait
    end
    assert_equal [:async] * 3, values
  rescue LoadError
    skip "async is not installed"
  end
end
