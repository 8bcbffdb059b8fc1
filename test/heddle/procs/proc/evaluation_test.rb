# frozen_string_literal: true

require "test_helper"

# The phases a Heddle::Proc::Evaluation goes through (Heddle::Evaluation's
# +@state+) and the rare state kept in its EvaluationExtras: the corner cases
# of that bookkeeping.
class EvaluationStatesTest < Minitest::Test
  include QuietProcErrors

  def test_a_plain_run_keeps_three_instance_variables
    pending = Heddle.concurrent_proc { Heddle.wait 0 }.call_detached
    running = Heddle.concurrent_proc { Heddle.wait 0 }.call_nonblock
    assert_equal %i[@loop @state @slot], pending.instance_variables
    assert_equal %i[@loop @state @slot], running.instance_variables
    [pending, running].each(&:await_result)
    assert_equal %i[@loop @state @slot], running.instance_variables # concluded, the result in @slot
  end

  def test_arguments_of_a_pending_start_reach_the_proc_once
    evaluation = Heddle.concurrent_proc { |a, b| [a, b] }.call_detached(1, 2)
    assert_equal [1, 2], evaluation.await_result
    assert_equal [[], [nil]], [Heddle.concurrent_proc { |*a| a }.call_detached.await_result,
                               Heddle.concurrent_proc { |*a| a }.call_detached(nil).await_result]
  end

  def test_a_proc_that_concludes_itself_runs_on_and_keeps_that_result
    log = []
    evaluation = Heddle.concurrently do
      Heddle::Evaluation.current.conclude_to(:early)
      log << :after_conclude
      Heddle.wait 0
      log << :after_wait
      :late
    end
    awaiter = Heddle.concurrently { evaluation.await_result }
    assert_equal :early, evaluation.await_result
    assert evaluation.concluded?
    assert_equal :early, awaiter.await_result
    Heddle.wait 0
    assert_equal %i[after_conclude after_wait], log
    assert_equal :early, evaluation.await_result
    assert_raises(Heddle::Evaluation::Error) { evaluation.conclude_to(:again) }
  end

  def test_a_zero_wait_ended_by_a_resume_does_not_cut_the_next_wait_short
    log = []
    evaluation = Heddle.concurrently do
      log << Heddle.wait(0) # resumed below before its round comes
      log << Heddle.await_resume!(within: 0.05, timeout_result: :timed_out)
    end
    Heddle.concurrently { evaluation.resume!(:by_hand) }
    evaluation.await_result
    assert_equal %i[by_hand timed_out], log
  end

  def test_an_evaluation_concluded_while_its_resume_is_queued_is_not_resumed
    log = []
    evaluation = Heddle.concurrently do
      log << Heddle.await_resume!
      log << :never
    ensure
      log << :ensure
    end
    Heddle.wait 0
    evaluation.resume!(:value)
    evaluation.conclude_to(:cancelled)
    Heddle.wait 0
    Heddle.wait 0
    assert_equal [:ensure], log
    assert_equal :cancelled, evaluation.await_result
  end

  def test_awaiters_are_woken_in_the_order_they_came
    order = []
    evaluation = Heddle.concurrently { Heddle.wait 0.01 }
    3.times { |i| Heddle.concurrently { evaluation.await_result && (order << i) } }
    slow = Heddle.concurrently { Heddle.wait 1 }
    fastest = Heddle.concurrently { Heddle.await_fastest(evaluation, slow) }
    evaluation.await_result
    Heddle.wait 0
    assert_equal [0, 1, 2], order
    assert_same evaluation, fastest.await_result
  ensure
    # Its 1 s timer would outlive the test on this thread's loop, and tests
    # that count the loop's timers would see it come and go.
    slow&.conclude_to(:done) unless slow&.concluded?
  end
end
