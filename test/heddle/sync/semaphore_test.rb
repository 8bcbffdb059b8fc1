# frozen_string_literal: true

require "English"
require "test_helper"
require_relative "../scheduler/bounded"

# Heddle::Semaphore: at most +limit+ holders, shared by threads
# and fibers, first come first served, and no slot lost to an interrupted wait.
class SyncSemaphoreTest < Minitest::Test
  include Bounded

  def test_fibers_under_heddle_run_hold_at_most_limit_at_once
    semaphore = Heddle::Semaphore.new(2)
    holding = []
    results = run_bounded do
      Array.new(6) { |i| Heddle.concurrently { semaphore.acquire { held(holding, semaphore, i) } } }.map(&:await_result)
    end

    assert_equal [(0..5).to_a, 2, 0], [results, holding.max, semaphore.count]
  end

  def test_threads_and_fibers_share_one
    semaphore = Heddle::Semaphore.new(1)
    holding = []
    bounded do
      threads = Array.new(3) { Thread.new { 5.times { semaphore.acquire { held(holding, semaphore, 0) } } } }
      Heddle.run do
        Array.new(3) { Heddle.concurrently { 5.times { semaphore.acquire { held(holding, semaphore, 0) } } } }
             .each(&:await_result)
      end
      threads.each(&:join)
    end

    assert_equal [30, 1, 0], [holding.size, holding.max, semaphore.count]
  end

  def test_procs_outside_heddle_run_share_it_through_heddles_waits
    semaphore = Heddle::Semaphore.new(1)
    holding = []
    bounded do
      Array.new(4) { Heddle.concurrently { semaphore.acquire { Heddle.wait(0.001) && held(holding, semaphore, 0) } } }
           .each(&:await_result)
    end

    assert_equal [4, 1], [holding.size, holding.max]
  end

  def test_waiters_get_in_first_come_first_served
    semaphore = Heddle::Semaphore.new(1)
    order = run_bounded do
      semaphore.acquire
      log = []
      waiters = Array.new(4) { |i| Heddle.concurrently { semaphore.acquire { log << i } } }
      Heddle.wait(0) until semaphore.waiting == 4
      semaphore.release
      waiters.each(&:await_result)
      log
    end

    assert_equal [0, 1, 2, 3], order
  end

  def test_the_block_form_releases_when_the_block_raises
    semaphore = Heddle::Semaphore.new(1)
    assert_raises(KeyError) { semaphore.acquire { raise KeyError, "in the block" } }

    assert_equal [0, true], [semaphore.count, semaphore.acquire]
  end

  def test_a_wait_cut_by_a_timeout_leaves_the_queue
    semaphore = Heddle::Semaphore.new(1)
    outcome = bounded do
      semaphore.acquire
      error = Thread.new { Heddle.with_timeout(0.01) { semaphore.acquire } rescue $ERROR_INFO.class }.value # rubocop:disable Style/RescueModifier
      waiting = semaphore.waiting
      semaphore.release
      [error, waiting, semaphore.count, semaphore.acquire { :again }]
    end

    assert_equal [Heddle::Evaluation::TimeoutError, 0, 0, :again], outcome
  end

  # The release hands the slot to the waiter, which is cancelled before it
  # runs: it must pass the slot on, not keep it.
  def test_a_waiter_cancelled_after_the_hand_over_gives_the_slot_back
    semaphore = Heddle::Semaphore.new(1)
    outcome = run_bounded do
      semaphore.acquire
      waiter = Heddle.concurrently { semaphore.acquire { :never } }
      Heddle.wait(0) until semaphore.waiting == 1
      semaphore.release
      waiter.conclude_to(:cancelled)
      [waiter.await_result, semaphore.count, semaphore.waiting]
    end

    assert_equal [:cancelled, 0, 0], outcome
  end

  def test_bad_limits_and_a_release_without_a_slot_are_refused
    refusals = [["2", TypeError], [nil, TypeError], [BasicObject.new, TypeError], [0, ArgumentError],
                [-1, ArgumentError], [10**30, ArgumentError]].map do |limit, klass|
      assert_raises(klass) { Heddle::Semaphore.new(limit) }.message.include?("limit")
    end
    release = assert_raises(Heddle::Error) { Heddle::Semaphore.new(1).release }

    assert_equal [true] * 6, refusals
    assert_match(/no slot is held/, release.message)
  end

  def test_a_lambda_block_runs_as_a_block
    semaphore = Heddle::Semaphore.new(1)
    semaphore.acquire
    waiter = Thread.new { semaphore.acquire(&-> { :ran }) } # waits: the Ruby path, not the C fast path
    Thread.pass until semaphore.waiting == 1
    semaphore.release
    assert_equal [:ran, 0], [waiter.value, semaphore.count]
  end

  private

  # Records how many hold the semaphore now, yields to the others, returns +value+.
  def held(holding, semaphore, value)
    holding << semaphore.count
    sleep 0.001
    value
  end
end
