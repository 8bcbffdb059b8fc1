# frozen_string_literal: true

require "test_helper"

# Heddle::MaskedLock: a waiter the lock is handed to cannot drop it when an
# interrupt reaches it first, so the next waiter is not left asleep on a
# free lock (what Thread::Mutex does on every Ruby heddle supports).
class MaskedLockTest < Minitest::Test
  class Poke < StandardError; end

  # A holds the lock; B, then C, wait for it; A raises B and unlocks. Unlock
  # hands the lock to B, whose interrupt is already pending. Answers what C's
  # block returned, nil if C never got the lock (then woken by hand so that
  # the test ends).
  def next_waiter_after_an_interrupt(lock)
    lock.lock
    first = waiter(lock) { nil }
    second = waiter(lock) { :got }
    first.raise(Poke)
    lock.unlock
    first.join(10)
    got = second.join(10)
    rescue_stuck(second) unless got
    got ? second.value : nil
  end

  def waiter(lock, &block)
    thread = Thread.new do
      Thread.current.report_on_exception = false
      lock.synchronize(&block)
    rescue Poke
      :poked
    end
    Thread.pass until thread.status == "sleep" || !thread.alive?
    thread
  end

  def rescue_stuck(thread)
    thread.wakeup
    thread.join(10)
  rescue ThreadError
    nil
  end

  def test_the_next_waiter_gets_the_lock_when_the_one_handed_it_is_raised
    lock = Heddle::MaskedLock.new
    assert_equal :got, next_waiter_after_an_interrupt(lock)
    refute_predicate lock, :locked?
  end

  def test_the_raised_waiter_still_gets_its_interrupt_after_the_block
    lock = Heddle::MaskedLock.new
    lock.lock
    ran = []
    thread = waiter(lock) { ran << :block }
    thread.raise(Poke)
    lock.unlock
    assert_equal :poked, thread.value
    assert_equal [:block], ran, "the block ran with the lock, then the interrupt landed"
  end

  def test_synchronize_returns_the_value_and_unlocks_on_return_break_and_raise
    lock = Heddle::MaskedLock.new
    assert_equal(42, lock.synchronize { 42 })
    assert_equal :early, leave_early(lock)
    refute_predicate lock, :locked?
    assert_raises(Poke) { lock.synchronize { raise Poke } }
    refute_predicate lock, :locked?
    assert_equal(:broke, lock.synchronize { break :broke })
    refute_predicate lock, :locked?
  end

  def leave_early(lock)
    lock.synchronize { return :early }
  end

  def test_a_second_synchronize_in_the_same_fiber_raises_and_keeps_the_lock
    lock = Heddle::MaskedLock.new
    error = lock.synchronize { assert_raises(ThreadError) { lock.synchronize { nil } } }
    assert_match(/recursive locking/, error.message)
    refute_predicate lock, :locked?
  end

  def test_synchronize_masked_locks_without_a_mask_of_its_own
    lock = Heddle::MaskedLock.new
    inside = Thread.handle_interrupt(Heddle::Masks::UNINTERRUPTED) { lock.synchronize_masked { lock.owned? } }
    assert inside
    refute_predicate lock, :locked?
  end

  def test_a_condition_wait_inside_can_be_interrupted
    lock = Heddle::MaskedLock.new
    condition = Thread::ConditionVariable.new
    thread = Thread.new do
      Thread.current.report_on_exception = false
      lock.synchronize { Thread.handle_interrupt(Heddle::Masks::INTERRUPTIBLE) { condition.wait(lock) } }
    rescue Poke
      :poked
    end
    Thread.pass until thread.status == "sleep"
    thread.raise(Poke)
    assert_equal :poked, thread.value
    refute_predicate lock, :locked?
  end

  # A fiber under a Fiber scheduler waits for a lock another thread holds,
  # then its thread's blocking fiber wants it too. Parked through the
  # scheduler, the fiber was handed the lock while its thread slept in the
  # mutex: the thread hung with the lock free. Now the fiber tries and
  # passes until the lock is free, and both get it in turn.
  def test_a_fiber_under_a_scheduler_and_its_thread_both_get_a_lock_held_elsewhere
    lock = Heddle::MaskedLock.new
    held = Thread::Queue.new
    release = Thread::Queue.new
    holder = Thread.new { lock.synchronize { (held << true) && release.pop } }
    held.pop
    user = Thread.new { fiber_then_thread_take(lock) }
    user.report_on_exception = false
    sleep 0.2 # the user's fiber, then its thread, now wait for the lock
    release << true

    assert user.join(30), "the thread slept on a free lock"
    assert_equal %i[fiber thread], user.value
    holder.join
  ensure
    [holder, user].each { |thread| thread&.kill }
  end

  def test_a_fiber_under_a_scheduler_still_refuses_to_lock_twice
    outcome = Thread.new do
      Heddle.run do
        lock = Heddle::MaskedLock.new
        lock.lock
        Thread.new { sleep 0.01 }.join # under the lock, as a waiter elsewhere would be
        lock.synchronize { :twice }
      rescue ThreadError => e
        e.message
      end
    end.value

    assert_match(/recursive locking/, outcome)
  end

  private

  # In a thread with a Fiber scheduler: a fiber takes +lock+ (held by
  # another thread for now), then the thread's own blocking fiber takes it.
  def fiber_then_thread_take(lock)
    log = []
    Fiber.set_scheduler(Heddle::Scheduler.new)
    Fiber.schedule { lock.synchronize { log << :fiber } }
    lock.synchronize { log << :thread }
    Fiber.scheduler.close
    log
  ensure
    Fiber.set_scheduler(nil)
  end
end
