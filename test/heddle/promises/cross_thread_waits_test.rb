# frozen_string_literal: true

require "test_helper"

# Waiting on an evaluation from a thread other than the one that started it:
# the wait ends when the owner's loop runs the evaluation; while
# the owner is blocked outside heddle it times out cleanly, never answering a
# pending value with a made-up result.
class CrossThreadWaitsTest < Minitest::Test
  def test_another_thread_gets_the_value_while_the_owner_runs_its_loop
    results = Heddle.run do
      evaluation = Heddle.concurrently { Heddle.wait(0.01) && (6 * 7) }
      by_promise = Thread.new { evaluation.to_promise.value(30) }
      by_await = Thread.new { evaluation.await_result(within: 30) }
      [by_promise.value, by_await.value]
    end
    assert_equal [42, 42], results
  end

  def test_an_owner_blocked_outside_heddle_makes_timed_waits_time_out_not_answer
    evaluation = Heddle.concurrently { 6 * 7 }
    outcomes = Thread.new do
      [evaluation.to_promise.value(0.05),
       capture { evaluation.to_promise.value!(0.05) },
       capture { evaluation.await_result(within: 0.05) }]
    end.value # the owner blocks in a plain Thread#value meanwhile

    assert_nil outcomes[0]
    assert_kind_of Heddle::Promise::TimeoutError, outcomes[1]
    assert_kind_of Heddle::Evaluation::TimeoutError, outcomes[2]
    refute evaluation.concluded?
    assert_equal 42, evaluation.await_result(within: 30), "the owner's own wait runs it"
  end

  def test_a_foreign_wait_without_a_timeout_ends_when_the_owner_comes_back_to_its_loop
    evaluation = Heddle.concurrently { 6 * 7 }
    waiter = Thread.new { evaluation.to_promise.value }
    Thread.pass while waiter.status == "run"
    assert_equal 42, evaluation.await_result(within: 30)
    assert_equal 42, waiter.join(30)&.value
  end

  private

  def capture
    yield
  rescue StandardError => e
    e
  end
end
