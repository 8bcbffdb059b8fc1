# frozen_string_literal: true

require "test_helper"
require "socket"
require "timeout"
require_relative "bounded"

# Queue, Mutex, ConditionVariable and Thread#join: each test shows that a plain blocking
# call inside a concurrent proc or a scheduled fiber suspends only that
# fiber: another proc, queued behind it, runs while it waits. Orders and
# counts only, never timings.
class SchedulerThreadSyncTest < Minitest::Test
  include Bounded

  def test_queue_pop_waits_for_a_push_from_another_fiber
    log = []
    run_bounded do
      queue = Queue.new
      consumer = Heddle.concurrently do
        log << :popping
        log << queue.pop
      end
      Heddle.concurrently do
        log << :pushing
        queue << :item
      end
      consumer.await_result
    end

    assert_equal %i[popping pushing item], log
  end

  def test_queue_pop_waits_for_a_push_from_another_thread
    ticks = 0
    result = run_bounded do
      queue = Queue.new
      ticker = Heddle.concurrently do
        until queue.closed?
          ticks += 1
          sleep 0.001
        end
      end
      Thread.new do
        Thread.pass until ticks >= 3
        queue << :from_thread
      end
      value = [queue.pop, ticks >= 3]
      queue.close
      ticker.await_result
      value
    end

    assert_equal [:from_thread, true], result
  end

  def test_many_threads_unblock_many_fibers
    popped = run_bounded do
      queue = Queue.new
      consumers = Array.new(8) { Heddle.concurrently { Array.new(100) { queue.pop } } }
      threads = Array.new(4) { |t| Thread.new { 200.times { |i| queue << [t, i] } } }
      consumers.flat_map(&:await_result).tap { threads.each(&:join) }
    end

    assert_equal 800, popped.uniq.size
  end

  def test_mutex_lock_waits_for_the_owner
    log = []
    run_bounded do
      mutex = Mutex.new
      owner = Heddle.concurrently do
        mutex.synchronize do
          log << :locked
          3.times { sleep 0 }
          log << :unlocking
        end
      end
      Heddle.concurrently do
        log << :wants
        mutex.synchronize { log << :got }
      end
      owner.await_result
    end

    assert_equal %i[locked wants unlocking got], log
  end

  def test_condition_variable_wait_and_signal
    log = []
    run_bounded do
      mutex = Mutex.new
      condition = ConditionVariable.new
      ready = []
      waiter = Heddle.concurrently do
        mutex.synchronize do
          log << :waiting
          condition.wait(mutex) while ready.empty?
          log << :signalled
        end
      end
      Heddle.concurrently { signal(mutex, condition, ready, log) }
      waiter.await_result
    end

    assert_equal %i[waiting signalling signalled], log
  end

  def test_condition_variable_wait_with_timeout_returns
    log = []
    run_bounded do
      mutex = Mutex.new
      condition = ConditionVariable.new
      Heddle.concurrently do
        mutex.synchronize { condition.wait(mutex, 0.01) }
        log << :timed_out
      end
      Heddle.concurrently { log << :other }
    end

    assert_equal %i[other timed_out], log
  end

  def test_thread_join_lets_others_run
    ticks = 0
    result = run_bounded do
      thread = Thread.new do
        Thread.pass until ticks >= 3
        :thread_value
      end
      ticker = Heddle.concurrently do
        50.times do
          ticks += 1
          sleep 0.001
        end
      end
      value = [thread.value, ticks >= 3]
      ticker.await_result
      value
    end

    assert_equal [:thread_value, true], result
  end

  private

  def signal(mutex, condition, ready, log)
    mutex.synchronize do
      log << :signalling
      ready << true
      condition.signal
    end
  end
end
