# frozen_string_literal: true

require "test_helper"
require "stringio"

class ProcTest < Minitest::Test
  def setup
    @log = StringIO.new
    Heddle::Proc.error_log_output = @log
  end

  def teardown
    Heddle::Proc.error_log_output = Heddle::STDERR_LOG
  end

  def test_call_returns_the_result_also_after_waiting
    adder = Heddle.concurrent_proc { |a, b| a + b }
    assert_equal 3, adder.call(1, 2)
    assert_equal 3, adder[1, 2]
    assert_equal 3, adder.(1, 2) # rubocop:disable Style/LambdaCall -- the .() form is part of the API
    assert_equal :waited, Heddle.concurrent_proc { Heddle.wait(0.001) && :waited }.call
  end

  def test_call_nonblock_returns_result_or_evaluation
    assert_equal :now, Heddle.concurrent_proc { :now }.call_nonblock
    evaluation = Heddle.concurrent_proc { Heddle.wait(0) && :later }.call_nonblock
    assert_kind_of Heddle::Proc::Evaluation, evaluation
    refute evaluation.concluded?
    assert_equal :later, evaluation.await_result
  end

  def test_call_detached_starts_on_the_next_iteration
    order = []
    evaluation = Heddle.concurrent_proc { order << :proc }.call_detached
    order << :caller
    Heddle.wait 0
    assert_equal %i[caller proc], order
    assert evaluation.concluded?
  end

  def test_call_and_forget_returns_nil_and_runs
    ran = []
    assert_nil Heddle.concurrent_proc { |x| ran << x }.call_and_forget(7)
    Heddle.wait 0
    assert_equal [7], ran
  end

  # A call_and_forget run waits 0 without an evaluation (PooledFiber#__wait__):
  # in turn with evaluations' waits, one more round each, and it can still
  # ask for its evaluation, wait longer, and raise to the on(:error) hooks.
  def test_call_and_forget_waits_keep_their_rounds_and_order
    order = []
    forget = Heddle.concurrent_proc do |name|
      order << [name, 1]
      2.upto(3) { |step| Heddle.wait(0) && (order << [name, step]) }
    end
    forget.call_and_forget(:a)
    detached = Heddle.concurrently do
      order << [:b, 1]
      Heddle.wait 0
      order << [:b, 2]
    end
    forget.call_and_forget(:c)
    Heddle.wait 0
    assert_equal [[:a, 1], [:b, 1], [:c, 1]], order
    detached.await_result
    Heddle.wait 0
    Heddle.wait 0
    assert_equal [[:a, 1], [:b, 1], [:c, 1], [:a, 2], [:b, 2], [:c, 2], [:a, 3], [:c, 3]], order
  end

  def test_call_and_forget_run_after_a_zero_wait_has_its_evaluation_and_errors
    seen = Queue.new
    hook = Heddle::Proc.on(:error) { |error| seen << error.message }
    Heddle.concurrent_proc do
      Heddle.wait 0
      evaluation = Heddle::Evaluation.current
      seen << evaluation.class
      Heddle.wait 0.001
      seen << evaluation.equal?(Heddle::Evaluation.current)
      raise "after waits"
    end.call_and_forget
    Timeout.timeout(5) { Heddle.wait 0.01 while seen.size < 3 }
    assert_equal [Heddle::Proc::Evaluation, true, "after waits"], [seen.pop, seen.pop, seen.pop]
  ensure
    hook&.cancel
  end

  def test_background_starts_keep_their_order_and_rounds
    order = []
    Heddle.concurrently do
      order << 1
      Heddle.concurrently { order << 4 }
    end
    3.times { |i| Heddle.concurrent_proc { order << (i + 10) }.call_and_forget }
    Heddle.concurrently { order << 2 }
    Heddle.wait 0
    Heddle.wait 0
    assert_equal [1, 10, 11, 12, 2, 4], order
  end

  def test_procs_run_in_non_blocking_fibers
    refute Heddle.concurrent_proc { Fiber.current.blocking? }.call
  end

  def test_fibers_are_reused
    fiber = Heddle.concurrent_proc { Fiber.current }
    assert_same fiber.call, fiber.call
  end

  def test_errors_reach_the_caller_every_awaiter_and_the_log
    failing = Heddle.concurrent_proc { raise ArgumentError, "bad" }
    assert_raises(ArgumentError) { failing.call }
    assert_raises(ArgumentError) { failing.call_nonblock }
    evaluation = failing.call_detached
    awaiters = Array.new(2) { Heddle.concurrently { evaluation.await_result(&:class) } }
    assert_raises(ArgumentError) { evaluation.await_result }
    assert_equal [ArgumentError, ArgumentError], awaiters.map(&:await_result)
    assert_includes @log.string, "Concurrent proc exited with error!"
    assert_includes @log.string, "(ArgumentError) bad"
  end

  def test_on_error_hooks_on_class_and_instance
    seen = []
    failing = Heddle.concurrent_proc { raise "oops" }
    class_hook = Heddle::Proc.on(:error) { |error| seen << [:class, equal?(failing), error.message] }
    instance_hook = failing.on(:error) { |error| seen << [:instance, error.message] }
    failing.call_detached.await_result { nil }
    class_hook.cancel
    instance_hook.cancel
    failing.call_detached.await_result { nil }
    assert_equal [[:class, true, "oops"], [:instance, "oops"]], seen
  end

  def test_once_on_hooks_run_for_one_error_and_say_when_cancelled
    seen = []
    cancelled = []
    failing = Heddle.concurrent_proc { raise "once" }
    refute failing.on?(:error)
    class_hook = Heddle::Proc.once_on(:error) { |error| seen << [:class, error.message] }
    class_hook.on_cancel { cancelled << :class }
    failing.once_on(:error) { |error| seen << [:instance, error.message] }.on_cancel { cancelled << :instance }
    assert failing.on?(:error)
    2.times { failing.call_detached.await_result { nil } }
    assert_equal [[:class, "once"], [:instance, "once"]], seen
    assert_equal %i[class instance], cancelled
    assert_equal [false, true], [failing.on?(:error), class_hook.cancelled?]
  end

  def test_once_on_refuses_an_unknown_event_and_a_missing_block
    assert_raises(ArgumentError) { Heddle::Proc.once_on(:finish) { nil } }
    assert_raises(ArgumentError) { Heddle.concurrent_proc { nil }.once_on(:error) }
    refute Heddle::Proc.on?(:finish)
  end

  def test_error_log_output_rejects_unusable_output_and_keeps_the_current_one
    error = assert_raises(Heddle::Error) { Heddle::Proc.error_log_output = 42 }
    assert_includes error.message, "error log output 42 is neither"
    Heddle.concurrently { raise ArgumentError, "still logged" }.await_result { nil }
    assert_includes @log.string, "(ArgumentError) still logged"
  end

  # Concurrently concludes an evaluation to these, too, and its loop goes on.
  def test_a_security_error_concludes_the_evaluation
    later = Heddle.concurrently { :still_runs }
    error = assert_raises(SecurityError) { Heddle.concurrently { raise SecurityError, "refused" }.await_result }
    assert_equal "refused", error.message
    assert_equal :still_runs, later.await_result
  end

  def test_non_standard_exceptions_leave_the_loop_intact
    later = Heddle.concurrently { :still_runs }
    Heddle.concurrently { raise Interrupt }
    assert_raises(Interrupt) { Heddle.wait 0 }
    assert_equal :still_runs, later.await_result
  end

  def test_custom_evaluation_class
    klass = Class.new(Heddle::Proc::Evaluation)
    assert_instance_of klass, Heddle.concurrent_proc(klass) { :x }.call_detached
  end

  def test_a_million_pending_evaluations_complete
    count = 0
    counter = Heddle.concurrent_proc { count += 1 }
    last = nil
    1_000_000.times { last = counter.call_detached }
    last.await_result
    assert_equal 1_000_000, count
  end

  # In a fresh thread, so the loop starts with no fibers at all.
  def test_more_waiting_evaluations_than_live_fibers_allowed
    peak = Thread.new do
      loop = Heddle::EventLoop.current
      loop.max_live_fibers = 50
      peak = 0
      waiter = Heddle.concurrent_proc do
        peak = [peak, loop.live].max
        Heddle.wait 0
      end
      Array.new(500) { waiter.call_detached }.each(&:await_result)
      peak
    end.value
    assert_equal 50, peak
  end

  # Fresh fiber stacks are the cost of spawning (bench spawn): while starts
  # are held back, finished fibers are kept for them, beyond POOL_SIZE.
  def test_held_back_starts_reuse_the_finished_fibers
    live = Heddle::EventLoop::POOL_SIZE + 100
    fibers = Thread.new do
      Heddle::EventLoop.current.max_live_fibers = live
      seen = {}.compare_by_identity
      waiter = Heddle.concurrent_proc do
        seen[Fiber.current] = true
        Heddle.wait 0
      end
      Array.new(live * 2) { waiter.call_detached }.each(&:await_result)
      seen.size
    end.value
    assert_equal live, fibers
  end

  def test_refused_fiber_is_a_heddle_error_and_the_loop_goes_on
    Heddle::EventLoop.current.drop_idle_fibers
    refuse_fibers do
      error = assert_raises(Heddle::Proc::FiberRefusedError) { Heddle.concurrent_proc { 1 }.call }
      assert_match(/cannot create a fiber/, error.message)
      evaluation = Heddle.concurrently { 1 }
      assert_raises(Heddle::Proc::FiberRefusedError) { evaluation.await_result }
    end
    assert_equal 2, Heddle.concurrently { 2 }.await_result
  end

  def test_call_and_forget_jobs_are_reused_with_their_own_arguments
    seen = []
    recorder = Heddle.concurrent_proc { |a, b = :none| seen << [a, b] }
    nested = Heddle.concurrent_proc { |n| recorder.call_and_forget(n, :nested) }
    3.times do |round|
      recorder.call_and_forget(round)
      nested.call_and_forget(round)
      recorder.call_and_forget(round, :two)
      Heddle.wait 0
      Heddle.wait 0
    end
    expected = 3.times.flat_map { |r| [[r, :none], [r, :two], [r, :nested]] }
    assert_equal expected.sort_by(&:to_s), seen.sort_by(&:to_s)
    assert_equal 9, seen.size
    assert_operator Heddle::EventLoop.current.spent_calls.size, :<=, Heddle::EventLoop::POOL_SIZE
  end

  private

  # Makes every new pooled fiber fail the way the OS refuses a stack.
  def refuse_fibers
    Heddle::Proc::PooledFiber.define_singleton_method(:new) { |_loop| raise FiberError, "can't alloc machine stack" }
    yield
  ensure
    Heddle::Proc::PooledFiber.singleton_class.send(:remove_method, :new)
  end
end
