# frozen_string_literal: true

require "test_helper"

# Waiting for an evaluation from a thread other than the one that started it:
# await_result and to_promise from "any thread".
class EvaluationPromiseTest < Minitest::Test
  include QuietProcErrors

  # Generous bound for liveness under load; never a timing assertion.
  LIVE = 30

  def test_a_concluded_result_reaches_another_thread_while_the_owner_is_blocked_outside_heddle
    evaluation = Heddle.concurrently { 6 * 7 }
    Heddle.wait(0)
    assert_predicate evaluation, :concluded?

    handed = Thread::Queue.new
    other = Thread.new { handed << [evaluation.to_promise.value(LIVE), evaluation.await_result] }
    answers = handed.pop # the owner blocks here, outside its loop, until the other thread answers
    assert_equal [42, 42], answers
    other.join
  end

  def test_a_pending_result_reaches_an_untimed_waiter_of_another_thread_once_the_owner_runs_it
    evaluation = Heddle.concurrently { Heddle.wait(0.001) && (6 * 7) }
    results = Thread::Queue.new
    waiters = [Thread.new { results << evaluation.await_result }, Thread.new { results << evaluation.to_promise.value }]
    Thread.pass until waiters.all? { |waiter| waiter.status == "sleep" }
    Heddle.wait(0.001) until waiters.all? { |waiter| waiter.join(0) }
    assert_equal [42, 42], Array.new(2) { results.pop }
  end

  # Longer than OwnerWatch::LINGER: the untimed waiter
  # looks at the owner thread between its waits and must go on waiting.
  def test_an_untimed_waiter_of_another_thread_outwaits_an_owner_blocked_outside_heddle
    evaluation = Heddle.concurrently { 6 * 7 }
    waiter = Thread.new { evaluation.await_result }
    sleep(Heddle::Promises::OwnerWatch::LINGER * 1.5) # blocked outside heddle meanwhile
    Heddle.wait(0.001) until waiter.join(0)
    assert_equal 42, waiter.value
  end

  def test_a_rejection_raises_in_the_waiter_of_another_thread
    evaluation = Heddle.concurrently { Heddle.wait(0.001) && raise(IOError, "disk gone") }
    waiter = Thread.new do
      evaluation.await_result
    rescue IOError => e
      e.message
    end
    Heddle.wait(0.001) until waiter.join(0)
    assert_equal "disk gone", waiter.value
  end

  def test_a_timed_wait_of_another_thread_times_out_with_heddle_errors_while_the_owner_is_blocked
    evaluation = Heddle.concurrently { 6 * 7 }
    done = Thread::Queue.new
    other = Thread.new do
      answers = [evaluation.to_promise.value(0.01), evaluation.await_result(within: 0.01, timeout_result: :late)]
      begin
        evaluation.await_result(within: 0.01)
      rescue Heddle::Evaluation::TimeoutError => e
        answers << e.class
      end
      done << answers
    end
    assert_equal [nil, :late, Heddle::Evaluation::TimeoutError], done.pop # blocked: nothing runs the evaluation
    other.join
    assert_equal 42, evaluation.await_result # the owner still runs it afterwards
  end

  def test_a_wait_for_an_evaluation_whose_thread_ended_raises_instead_of_hanging
    evaluation = Thread.new { Heddle.concurrently { :never_run } }.value # its thread ends without running it
    waiter = Thread.new do
      evaluation.await_result
    rescue Heddle::Evaluation::LoopGoneError => e
      e
    end
    assert_kind_of Heddle::Evaluation::LoopGoneError, waiter.join(LIVE)&.value
    assert_match(/thread .* ended/, waiter.value.message)
    assert_raises(Heddle::Evaluation::LoopGoneError) { evaluation.to_promise.value(LIVE) }
  end

  def test_a_wait_for_an_evaluation_whose_thread_ends_during_the_wait_raises
    handed = Thread::Queue.new
    ending = Thread::Queue.new
    owner = Thread.new do
      handed << Heddle.concurrently { :never_run }
      ending.pop # blocked outside heddle for a while; then it ends
    end
    evaluation = handed.pop
    waiter = Thread.new do
      evaluation.await_result
    rescue Heddle::Evaluation::LoopGoneError => e
      e
    end
    Thread.pass until waiter.status == "sleep"
    sleep(Heddle::Promises::OwnerWatch::LINGER * 1.5) # past the waiter's first look
    ending << :end
    owner.join
    assert_kind_of Heddle::Evaluation::LoopGoneError, waiter.join(LIVE)&.value
  end

  # A timed wait got TimeoutError, an untimed one LoopGoneError a
  # second late; now both get LoopGoneError when the thread dies, saying how.
  def test_a_wait_for_an_evaluation_whose_thread_dies_says_it_died_timed_or_not
    die = Thread::Queue.new
    owner, evaluation = dying_owner(die)
    waiters = [{ within: 30 }, {}].map { |options| Thread.new { wait_error(evaluation, options) } }
    Thread.pass until waiters.all? { |waiter| waiter.status == "sleep" }
    die << :now
    errors = waiters.map { |waiter| waiter.join(LIVE).value }
    assert_equal [Heddle::Evaluation::LoopGoneError] * 2, errors.map(&:class)
    errors.each { |error| assert_match(/died with ArgumentError: "owner's bug"/, error.message) }
    assert_raises(ArgumentError) { owner.value } # it died as it was told
  end

  def test_a_result_made_before_the_thread_ended_is_still_there
    evaluation = Thread.new { Heddle.concurrently { :made }.tap { Heddle.wait(0) } }.value
    assert_equal %i[made made], [evaluation.await_result, evaluation.to_promise.value(LIVE)]
  end

  def test_await_fastest_refuses_another_threads_evaluation_naming_it
    started = Thread::Queue.new
    finish = Thread::Queue.new
    owner = Thread.new do
      started << Heddle.concurrently { :theirs }
      finish.pop
    end
    theirs = started.pop
    error = assert_raises(ArgumentError) { Heddle.await_fastest(Heddle.concurrently { :ours }, theirs) }
    assert_match(/argument 1 .*to_promise/, error.message)
    assert_equal :ok, Heddle.wait(0) && :ok
  ensure
    finish << true
    owner&.join
  end

  # A thread that hands over an evaluation it never runs, then raises once told to.
  # @return [Array(Thread, Heddle::Proc::Evaluation)]
  def dying_owner(die)
    handed = Thread::Queue.new
    owner = Thread.new do
      Thread.current.report_on_exception = false
      handed << Heddle.concurrently { :never_run }
      die.pop
      raise ArgumentError, "owner's bug"
    end
    [owner, handed.pop]
  end

  def wait_error(evaluation, options)
    evaluation.await_result(**options)
  rescue Heddle::Evaluation::LoopGoneError, Heddle::Evaluation::TimeoutError => e
    e
  end
end
