# frozen_string_literal: true

require "test_helper"

# An interrupt landing while the loop schedules a waiting evaluation (its
# timer being cancelled) must leave the evaluation either waiting or
# scheduled with its run-queue entry queued, never scheduled without one.
class ScheduleInterruptsTest < Minitest::Test
  include QuietProcErrors

  class Boom < StandardError; end

  # The root evaluation's wait is ended by the raise; its next wait must
  # still get its own resume (an entry counted stale that was never queued
  # ate it, and the wait ended in a DeadlockError or hung).
  def test_a_raise_as_a_timed_root_wait_is_scheduled_leaves_its_next_wait_working
    outcome = in_a_thread { root_waits_twice { interrupt_once_after_cancel_timer(Heddle::EventLoop.current) } }

    assert_equal [Boom, :second_timed_out], outcome
  end

  # A proc's wait scheduled by the loop while the raise lands there: the
  # proc still gets its resume and concludes with its value.
  def test_a_raise_as_a_timed_proc_wait_is_scheduled_leaves_the_proc_resumed
    outcome = in_a_thread { proc_resumed_across_a_raise { interrupt_once_after_cancel_timer(Heddle::EventLoop.current) } }

    assert_equal [Boom, :woken], outcome
  end

  # The raise lands as the loop has taken the root's entry, before its run:
  # nothing is queued for the ended wait, so nothing may be counted stale.
  def test_a_raise_as_the_loop_takes_a_root_waits_entry_leaves_its_next_wait_working
    outcome = in_a_thread { root_waits_twice { interrupt_once_before_run(Heddle::Evaluation.current) } }

    assert_equal [Boom, :second_timed_out], outcome
  end

  # The raise lands as the loop has taken a proc's entry, before its run:
  # the loop puts the entry back, and the proc still gets its resume.
  def test_a_raise_as_the_loop_takes_a_procs_entry_leaves_the_proc_resumed
    outcome = in_a_thread { proc_resumed_across_a_raise { |waiter| interrupt_once_before_run(waiter) } }

    assert_equal [Boom, :woken], outcome
  end

  # The invariant itself, on the root evaluation: after any interrupted
  # wait its count of stale entries matches the entries queued for it.
  def test_after_the_interrupted_wait_no_stale_entry_is_counted_that_is_not_queued
    outcome = in_a_thread do
      root = Heddle::Evaluation.current
      loop = Heddle::EventLoop.current
      interrupt_once_after_cancel_timer(loop)
      once_waiting(root) { root.resume!(:first) }
      capture { Heddle.await_resume!(within: 30) }
      [root.instance_variable_get(:@stale).to_i, loop.queue.count { |entry| entry.equal?(root) }]
    end

    stale, queued = outcome
    assert_equal queued, stale
  end

  # A raise from another thread ends a timed root wait, and a second one
  # lands as the wait's timer is cancelled on the way out: the evaluation
  # is not left saying it waits.
  def test_a_second_raise_as_an_ended_wait_drops_its_timer_leaves_it_not_waiting
    outcome = in_a_thread do
      root = Heddle::Evaluation.current
      interrupt_once_after_cancel_timer(Heddle::EventLoop.current)
      me = Thread.current
      once_waiting(root) { me.raise(Boom) }
      first = capture { capture { Heddle.await_resume!(within: 30) } }
      [first, root.waiting?, Heddle.await_resume!(within: 0.001, timeout_result: :timed_out)]
    end

    assert_equal [Boom, false, :timed_out], outcome
  end

  private

  # In the calling thread: the block arms an interrupt, another thread
  # resumes the root's timed wait, then the root waits again.
  # @return [Array] what the first wait ended with, what the second returned
  def root_waits_twice
    root = Heddle::Evaluation.current
    yield
    once_waiting(root) { root.resume!(:first) }
    first = capture { Heddle.await_resume!(within: 30) }
    [first, Heddle.await_resume!(within: 0.001, timeout_result: :second_timed_out)]
  end

  # In the calling thread: a proc waits, the block (given the proc) arms an
  # interrupt, another thread resumes the proc, and its result is awaited
  # once across the raise and once after.
  # @return [Array] what the first await ended with, the proc's result
  def proc_resumed_across_a_raise
    waiter = Heddle.concurrently { Heddle.await_resume!(within: 30) }
    Heddle.wait(0)
    yield waiter
    Thread.new { waiter.resume!(:woken) }.join
    first = capture { waiter.await_result(within: 30) }
    [first, waiter.await_result(within: 5, timeout_result: :never_resumed)]
  end

  # Another thread runs the block once +evaluation+ waits.
  def once_waiting(evaluation)
    Thread.new do
      Thread.pass until evaluation.waiting?
      yield
    end
  end

  # Runs the block in a fresh thread (a loop of its own) and returns its value.
  def in_a_thread(&)
    thread = Thread.new(&)
    thread.report_on_exception = false
    assert thread.join(30), "the thread's waits hung"
    thread.value
  ensure
    thread&.kill
  end

  # @return [Class, Object] the class of what the block raised, else its value
  def capture
    yield
  rescue Boom => e
    e.class
  end

  # The next run of +evaluation+'s run-queue entry raises before it begins,
  # as a Thread#raise landing as the loop takes the entry would.
  def interrupt_once_before_run(evaluation)
    fired = false
    evaluation.singleton_class.prepend(Module.new do
      define_method(:__run__) { fired ? super() : (fired = true) && Thread.current.raise(Boom) }
    end)
  end

  # The next cancel of a timer on +loop+ ends with an asynchronous raise on
  # the calling thread, as a Thread#raise arriving there would.
  def interrupt_once_after_cancel_timer(loop)
    fired = false
    loop.singleton_class.prepend(Module.new do
      define_method(:cancel_timer) do |timer|
        super(timer).tap { (fired = true) && Thread.current.raise(Boom) unless fired }
      end
    end)
  end
end
