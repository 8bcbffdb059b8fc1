# frozen_string_literal: true

require "test_helper"

# A waiter outside any proc that loops on `wait 0` returns from the loop at
# the end of every round; it must not starve what the loop only takes in
# between rounds: ready IO, wake-ups from other threads, held-back starts.
class BusyWaiterTest < Minitest::Test
  def test_ready_io_reaches_its_waiter
    reader, writer = IO.pipe
    waiter = Heddle.concurrently { Heddle.await_readable(reader) && :read }
    Heddle.wait 0
    writer.write "x"
    assert_equal :read, spin_until { waiter.concluded? } && waiter.await_result
  ensure
    [reader, writer].each(&:close)
  end

  def test_a_resume_from_another_thread_arrives
    waiter = Heddle.concurrently { Heddle.await_resume! }
    Heddle.wait 0
    Thread.new { waiter.resume!(:woken) }.join
    assert_equal :woken, spin_until { waiter.concluded? } && waiter.await_result
  end

  def test_held_back_starts_run
    seen = Thread.new do
      Heddle::EventLoop.current.max_live_fibers = 2
      seen = []
      5.times { |i| Heddle.concurrently { Heddle.wait(0) && (seen << i) } }
      spin_until { seen.size == 5 }
      seen
    end.value
    assert_equal [0, 1, 2, 3, 4], seen
  end

  # Entries that ran stay at the queue's head until 64 have gathered
  # (EventLoop::COMPACT_AT); a queue holding only those is idle, so a timed
  # wait sleeps instead of running empty rounds until its timer is due.
  def test_a_timed_wait_sleeps_with_only_spent_entries_queued
    rounds = Thread.new do
      loop = Heddle::EventLoop.current
      3.times { Heddle.concurrently { :spent } }
      Heddle.wait 0
      count = 0
      counting = Module.new { define_method(:fire_due) { (count += 1) && super() } }
      loop.singleton_class.prepend(counting)
      Heddle.wait(0.05)
      count
    end.value
    assert_operator rounds, :<=, 5, "the loop ran #{rounds} rounds instead of sleeping"
  end

  private

  # Waits 0 until the block is true; fails after many rounds instead of
  # hanging (the rounds are counted, not timed).
  def spin_until
    100_000.times do
      return true if yield

      Heddle.wait 0
    end
    flunk "still waiting after 100,000 rounds of wait 0"
  end
end
