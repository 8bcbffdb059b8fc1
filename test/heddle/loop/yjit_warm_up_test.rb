# frozen_string_literal: true

require "test_helper"
require "open3"
require "rbconfig"

# The YJIT warm-up of heddle's fiber bodies: made once per process and only
# while YJIT runs; a warming call does nothing. (The suite runs with and
# without --yjit: each test asserts what holds in the running one.)
class YJITWarmUpTest < Minitest::Test
  include InHeddleRun

  def yjit?
    Heddle::YJITWarmUp.yjit?
  end

  def test_a_warm_up_calls_its_body_only_under_yjit_and_only_once
    calls = 0
    warm_up = Heddle::YJITWarmUp.new { calls += 1 }
    first = warm_up.warm
    second = warm_up.warm
    assert_equal yjit?, first
    refute second
    assert_equal(yjit? ? Heddle::YJITWarmUp::CALLS : 0, calls)
    assert_equal(yjit? ? 1 : 0, warm_up.runs)
    assert_equal yjit?, warm_up.warmed?
  end

  def test_the_warm_calls_are_above_yjits_largest_default_call_threshold
    assert_operator Heddle::YJITWarmUp::CALLS, :>, 120
  end

  def test_a_warm_up_needs_its_warming_call
    error = assert_raises(ArgumentError) { Heddle::YJITWarmUp.new }
    assert_includes error.message, "block"
  end

  def test_proc_workers_warm_up_once_however_many_fibers_are_made
    waiting = Array.new(40) { Heddle.concurrently { Heddle.await_resume!(within: 60) } }
    Heddle.wait 0
    waiting.each(&:resume!)
    waiting.each(&:await_result)
    assert_equal(yjit? ? 1 : 0, Heddle::Proc::PooledFiber::WARM_UP.runs)
  end

  def test_the_scheduler_and_a_fiber_pool_warm_up_once
    2.times do
      in_heddle_run do
        pool = Heddle::Pool.new(worker: :fiber, size: 3) { |x| x + 1 }
        assert_equal [2, 3], pool.map([1, 2])
        pool.shutdown
      end
    end
    assert_equal(yjit? ? 1 : 0, Heddle::Scheduler::BlockingFiber::WARM_UP.runs)
    assert_equal(yjit? ? 1 : 0, Heddle::Workers::Fibers::Backend::WARM_UP.runs)
  end

  def test_the_event_loop_warms_up_once_for_all_threads_loops
    loops = Array.new(3) { Thread.new { Heddle::EventLoop.current }.value }
    assert_equal 3, loops.uniq.size
    assert_equal(yjit? ? 1 : 0, Heddle::EventLoop::WARM_UP.runs)
  end

  def test_an_event_loop_warming_call_runs_nothing_queued
    ran = []
    Thread.new do
      loop = Heddle::EventLoop.current
      Heddle.concurrently { ran << :started }
      queued = loop.queue.size
      loop.run_until(Heddle::EventLoop::RESUMED)
      ran << [:queued_after, loop.queue.size == queued]
      Heddle.wait 0
    end.join
    assert_equal [[:queued_after, true], :started], ran
  end

  def test_a_loop_and_procs_in_another_ractor_leave_the_warm_ups_alone
    experimental = Warning[:experimental]
    Warning[:experimental] = false
    ractor = Ractor.new { [Heddle::YJITWarmUp.main_ractor?, Heddle.concurrent_proc { Heddle.wait(0) && :ran }.call] }
    assert_equal [false, :ran], ractor.take
    assert Heddle::YJITWarmUp.main_ractor?
  ensure
    Warning[:experimental] = experimental
  end

  def test_a_pooled_fiber_warming_call_touches_no_loop_or_fiber_state
    loop = Heddle::EventLoop.current
    fibers = loop.fibers
    pooled = loop.pool.size
    context = Thread.current[Heddle::Proc::Evaluation::FIBER_KEY]
    fiber = Heddle::Proc::PooledFiber.allocate
    assert_nil fiber.__send__(:work, true)
    assert_empty fiber.instance_variables
    assert_equal [fibers, pooled], [loop.fibers, loop.pool.size]
    assert_same context, Thread.current[Heddle::Proc::Evaluation::FIBER_KEY]
  end

  def test_a_blocking_fiber_warming_call_does_nothing
    blocking = Heddle::Scheduler::BlockingFiber.allocate
    assert_nil blocking.__send__(:serve, true)
    assert_empty blocking.instance_variables
  end

  def test_a_fiber_pool_warming_call_does_nothing
    # A real run would fail at once here: the allocated backend has no queue.
    backend = Heddle::Workers::Fibers::Backend.allocate
    assert_nil backend.__send__(:work, nil)
    assert_empty backend.instance_variables
  end

  def test_yjit_enabled_at_run_time_warms_up_at_the_next_fiber
    skip "RubyVM::YJIT.enable needs Ruby 3.3+" unless defined?(RubyVM::YJIT) && RubyVM::YJIT.respond_to?(:enable)

    script = <<~RUBY
      require "heddle"
      Heddle.concurrent_proc { 1 }.call
      before = Heddle::Proc::PooledFiber::WARM_UP.runs
      RubyVM::YJIT.enable
      Heddle.concurrent_proc { Heddle.wait(0) }.call_nonblock
      Heddle.concurrent_proc { Heddle.wait(0) }.call_nonblock
      print [before, Heddle::Proc::PooledFiber::WARM_UP.runs].inspect
    RUBY
    out, err, status = Open3.capture3({ "RUBYOPT" => nil }, RbConfig.ruby, "--disable-yjit", *LibRoots::FLAGS, "-e",
                                      script)
    assert status.success?, err
    assert_equal "[0, 1]", out
  end
end
