# frozen_string_literal: true

require "test_helper"

class PromiseThreadsTest < Minitest::Test
  def test_many_thread_waiters_all_get_the_value
    promise = Heddle::Promise.new
    waiters = Array.new(8) { |i| Thread.new { i.even? ? promise.value : promise.value(10) } }
    sleep 0.01 until waiters.all? { |t| t.status == "sleep" }
    promise.fulfill(:shared)
    assert_equal([:shared] * 8, waiters.map { |t| t.join(10)&.value })
  end

  def test_rejection_raises_in_every_thread_waiter
    promise = Heddle::Promise.new
    waiters = Array.new(4) do
      Thread.new do
        promise.value!(10)
      rescue ArgumentError => e
        e
      end
    end
    sleep 0.01 until waiters.all? { |t| t.status == "sleep" }
    promise.reject(ArgumentError.new("refused"))
    messages = waiters.map { |t| t.join(10)&.value&.message }
    assert_equal ["refused"] * 4, messages
  end

  def test_a_timed_out_waiter_does_not_steal_a_later_wake_up
    first = Heddle::Promise.new
    second = Heddle::Promise.new
    waiter = Thread.new do
      timed_out = first.wait(0.01)
      [timed_out, second.value(10)]
    end
    sleep 0.05
    first.fulfill(1) # too late for the waiter: its wake-up must not count for `second`
    second.fulfill(2)
    assert_equal [false, 2], waiter.join(10)&.value
  end

  def test_resolving_from_many_threads_has_exactly_one_winner
    promise = Heddle::Promise.new
    wins = Array.new(8) { |i| Thread.new { promise.try_fulfill(i) } }.map { |t| t.join(10).value }
    assert_equal 1, wins.count(true)
    assert_equal wins.index(true), promise.value
  end

  def test_reuse_with_reset_hands_over_each_value_once
    promise = Heddle::Promise.new
    jobs = Thread::Queue.new
    resolver = Thread.new { 1.upto(200) { |i| jobs.pop.fulfill(i) } }
    seen = Array.new(200) do
      jobs << promise.reset
      promise.value(10)
    end
    assert resolver.join(10)
    assert_equal (1..200).to_a, seen
  end
end
