# frozen_string_literal: true

require "test_helper"

# YJITWarmUp calls the fiber bodies with their warming argument so YJIT
# compiles them: once per process, only under YJIT, and with no effect.
class YJITWarmUpTest < Minitest::Test
  WarmUp = Loom::YJITWarmUp

  def test_it_runs_once_per_key_and_only_under_yjit
    calls = 0
    key = Object.new
    first = WarmUp.run(key) { calls += 1 }
    second = WarmUp.run(key) { calls += 1 }
    if WarmUp.enabled?
      assert_equal [true, false, WarmUp::CALLS], [first, second, calls]
      assert WarmUp.warmed?(key)
    else
      assert_equal [false, false, 0], [first, second, calls]
      refute WarmUp.warmed?(key)
    end
  end

  def test_the_warming_calls_touch_no_loop_or_thread_state
    before = Thread.current[Loom::Evaluation::FIBER_KEY]
    assert_nil Loom::Proc::Worker.allocate.__send__(:work, warming: true)
    assert_nil Loom::Workers::FiberBackend.allocate.__send__(:work, nil)
    assert_same before, Thread.current[Loom::Evaluation::FIBER_KEY]
  end

  def test_procs_and_fiber_pools_behave_the_same_after_a_warm_up
    assert_equal [1, 2, 3], Array.new(3) { |i| Loom.concurrent_proc { |x| x + 1 }.call(i) }
    assert_equal [2, 4], Loom.map([1, 2], worker: :fiber, size: 2) { |x| x * 2 }
    return unless WarmUp.enabled?

    assert WarmUp.warmed?(Loom::Proc::Worker)
    assert WarmUp.warmed?(Loom::Workers::FiberBackend)
  end
end
