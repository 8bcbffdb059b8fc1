# frozen_string_literal: true

require "test_helper"

class EvaluationTest < Minitest::Test
  include QuietProcErrors

  def test_wait_rejects_a_non_numeric_duration_in_and_outside_procs
    error = assert_raises(TypeError) { Heddle.wait("1") }
    assert_match(/Numeric.*"1"/, error.message)
    inside = Heddle.concurrently { Heddle.wait(:soon) }
    assert_raises(TypeError) { inside.await_result }
  end

  def test_wait_rejects_nan_and_waits_for_ever_on_infinity
    assert_raises(ArgumentError) { Heddle.wait(Float::NAN) }
    forever = Heddle.concurrently { Heddle.wait(Float::INFINITY) }
    Heddle.wait(0.001)
    refute_predicate forever, :concluded?
    assert_equal 0, Heddle::EventLoop.current.timer_count # for ever: no timer at all
    forever.resume!(:woken)
    assert_equal :woken, forever.await_result
    assert Heddle.wait(-1) # a negative wait is over at once, like a wait 0
  end

  def test_a_proc_refuses_an_evaluation_class_that_is_not_one
    error = assert_raises(TypeError) { Heddle::Proc.new(Hash) { 1 } }
    assert_match(/evaluation_class.*Hash/, error.message)
  end

  def test_current_outside_and_inside_procs
    root = Heddle::Evaluation.current
    assert_instance_of Heddle::Evaluation, root
    assert_same root, Heddle::Evaluation.current
    inner = Heddle.concurrently { Heddle::Evaluation.current }
    assert_same inner, inner.await_result
  end

  def test_waiting_and_resume
    evaluation = Heddle.concurrently { Heddle.await_resume! }
    Heddle.wait 0
    assert evaluation.waiting?
    assert_equal :resumed, evaluation.resume!(:value)
    refute evaluation.waiting?
    error = assert_raises(Heddle::Evaluation::Error) { evaluation.resume! }
    assert_match(/\Aalready scheduled/, error.message)
    assert_equal :value, evaluation.await_result
    assert_raises(Heddle::Evaluation::Error) { evaluation.resume! }
  end

  def test_resume_cuts_a_wait_short
    evaluation = Heddle.concurrently { Heddle.wait 10 }
    Heddle.wait 0
    evaluation.resume!(:early)
    assert_equal :early, evaluation.await_result(within: 1)
  end

  def test_conclude_to_runs_ensure_and_wakes_awaiters
    log = []
    evaluation = Heddle.concurrently do
      Heddle.wait 10
    ensure
      log << :ensure
    end
    awaiter = Heddle.concurrently { evaluation.await_result }
    Heddle.wait 0
    assert_equal :concluded, evaluation.conclude_to(:stopped)
    assert_equal [:ensure], log
    assert_equal :stopped, awaiter.await_result
    assert_raises(Heddle::Evaluation::Error) { evaluation.conclude_to(:again) }
  end

  # The ensure blocks of a cancelled proc run as its evaluation, concluded
  # (as in Concurrently): they read its data, cannot conclude it again, and
  # may still wait.
  def test_ensure_blocks_of_a_cancelled_proc_run_as_its_concluded_evaluation
    seen = []
    evaluation = Heddle.concurrently do
      Heddle::Evaluation.current[:connection] = :open
      Heddle.wait 10
    ensure
      current = Heddle::Evaluation.current
      seen << current << current[:connection] << current.concluded?
      again = assert_raises(Heddle::Evaluation::Error) { current.conclude_to(:again) }
      seen << again.message[/\A.*/] << Heddle.wait(0.001)
    end
    Heddle.wait 0
    evaluation.conclude_to(:stopped)
    Heddle.wait 0.01
    assert_equal [evaluation, :open, true, "already concluded", true], seen
    assert_equal :stopped, evaluation.await_result
  end

  # Concluded while it runs further up the call chain: its next wait raises,
  # once, so that its ensure blocks may wait.
  def test_an_evaluation_concluded_up_the_call_chain_unwinds_at_its_next_wait_and_may_wait_after
    log = []
    outer = Heddle.concurrently do
      Heddle.concurrent_proc { outer.conclude_to(:from_inner) }.call
      Heddle.wait 0.001
      log << :not_reached
    ensure
      log << Heddle.wait(0.001) << Heddle::Evaluation.current.equal?(outer)
    end
    assert_equal :from_inner, outer.await_result
    Heddle.wait 0.01
    assert_equal [true, true], log
  end

  # From another thread the call cannot be told the evaluation concluded
  # meanwhile (ScheduledFiber#kill racing the fiber's end): the delivered
  # conclusion is dropped on the loop, not raised into whatever runs there.
  def test_a_conclusion_from_another_thread_that_arrives_late_is_dropped
    outcome = Thread.new do
      Heddle.run do
        evaluation = Heddle.concurrently { :done }
        evaluation.await_result
        Thread.new { evaluation.conclude_to(:late) }.join
        Heddle.wait 0.01 # the loop takes its mail here
        evaluation.await_result
      end
    end.value

    assert_equal :done, outcome
  end

  def test_conclude_before_start_never_runs_the_proc
    ran = false
    evaluation = Heddle.concurrently { ran = true }
    evaluation.conclude_to(:skipped)
    Heddle.wait 0
    refute ran
    assert_equal :skipped, evaluation.await_result
  end

  def test_concluding_a_parent_cancels_its_children
    log = []
    children = []
    parent = Heddle.concurrently do
      2.times do |i|
        children << Heddle.concurrently do
          Heddle.wait 10
        ensure
          log << i
        end
      end
      Heddle.wait 10
    end
    Heddle.wait 0
    Heddle.wait 0
    assert_equal 2, parent.children.size
    parent.conclude_to(:cancelled)
    assert_equal [0, 1], log.sort
    children.each { |child| assert_raises(Heddle::Evaluation::CancelledError) { child.await_result } }
  end

  def test_children_outlive_a_parent_that_returns
    child = nil
    parent = Heddle.concurrently { child = Heddle.concurrently { Heddle.wait(0.001) && :child } }
    parent.await_result
    assert_equal :child, child.await_result
  end

  def test_await_children
    done = []
    parent = Heddle.concurrently do
      3.times { |i| Heddle.concurrently { Heddle.wait(0.001 * i) && (done << i) } }
      Heddle::Evaluation.current.await_children(within: 1)
      done.size
    end
    assert_equal 3, parent.await_result
  end

  def test_await_children_times_out
    child = nil
    parent = Heddle.concurrently do
      child = Heddle.concurrently { Heddle.wait 10 }
      Heddle::Evaluation.current.await_children(within: 0.001)
    end
    assert_raises(Heddle::Evaluation::TimeoutError) { parent.await_result }
    child.conclude_to(:done) # leave no fiber behind for later tests' Heddle.run
  end

  def test_data
    evaluation = Heddle.concurrently { :x }
    refute evaluation.key?(:a)
    evaluation[:a] = 1
    assert_equal [1, true, [:a]], [evaluation[:a], evaluation.key?(:a), evaluation.keys]
  end

  def test_timeouts_on_any_wait
    reader, _writer = IO.pipe
    assert_equal :t, Heddle.await_resume!(within: 0.001, timeout_result: :t)
    assert_equal :t, Heddle.await_readable(reader, within: 0.001, timeout_result: :t)
    slow = Heddle.concurrently { Heddle.wait 1 }
    assert_equal :t, slow.await_result(within: 0.001, timeout_result: :t)
    slow.conclude_to(:done)
    error = assert_raises(Heddle::Evaluation::TimeoutError) { Heddle.await_resume!(within: 0.001) }
    assert_equal "evaluation timed out after 0.001 second(s)", error.message
  end

  def test_order_within_one_iteration
    counter = 0
    first = Heddle.concurrent_proc { Heddle.wait(0.01) && counter += 1 }.call_nonblock
    second = Heddle.concurrent_proc { Heddle.wait(0) && counter += 1 }.call_nonblock
    third = Heddle.concurrent_proc { counter += 1 }.call_detached
    sleep 0.02
    Heddle.wait 0
    assert_equal [1, 2, 3, 4], [third.await_result, second.await_result, first.await_result, counter + 1]
  end

  def test_wait_in_a_plain_fiber_inside_a_proc
    result = Heddle.concurrently do
      Fiber.new { Heddle.wait(0.001) && :plain }.resume
    end
    assert_equal :plain, result.await_result
  end

  def test_root_wait_zero_with_nothing_due_returns_and_a_procs_wait_zero_suspends
    assert Heddle.wait(0)
    evaluation = Heddle.concurrent_proc { Heddle.wait(0) && :resumed }.call_nonblock
    assert_instance_of Heddle::Proc::Evaluation, evaluation
    refute evaluation.concluded?
    assert Heddle.wait(0)
    assert_equal :resumed, evaluation.await_result
  end

  def test_root_wait_zero_runs_what_is_due_first
    ran = []
    Heddle.concurrent_proc { ran << :started }.call_and_forget
    timer_evaluation = Heddle.concurrently { Heddle.wait(0.001) && (ran << :timer) }
    Heddle.wait 0
    assert_equal [:started], ran
    sleep 0.005
    Heddle.wait 0
    assert_equal %i[started timer], ran
    timer_evaluation.await_result
  end
end
