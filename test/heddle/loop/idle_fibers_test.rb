# frozen_string_literal: true

require "test_helper"

# The loop's idle pooled fibers are ended, not only forgotten, when it lets
# go of them: a suspended fiber keeps its stack until it is collected.
class IdleFibersTest < Minitest::Test
  # Runs +count+ procs at once in this thread's loop, each waiting once, and
  # returns the fibers they ran in (idle in the pool afterwards).
  def idle_fibers(count)
    fibers = []
    waiter = Heddle.concurrent_proc do
      fibers << Fiber.current
      Heddle.wait 0
    end
    Array.new(count) { waiter.call_detached }.each(&:await_result)
    fibers
  end

  def test_dropped_idle_fibers_are_ended_and_counted_out
    Thread.new do
      loop = Heddle::EventLoop.current
      fibers = idle_fibers(5)
      assert_equal [5, 5], [loop.pool.size, loop.fibers]
      assert_equal 5, loop.drop_idle_fibers
      assert_equal [0, 0], [loop.pool.size, loop.fibers]
      assert_equal [false] * 5, fibers.map(&:alive?)
      assert_equal 3, Heddle.concurrently { 3 }.await_result
    end.join
  end

  def test_retiring_keeps_the_fibers_used_last
    Thread.new do
      loop = Heddle::EventLoop.current
      idle_fibers(5)
      kept = loop.pool.last(2).map(&:fiber)
      assert_equal 3, loop.retire_idle_fibers(2)
      assert_equal 0, loop.retire_idle_fibers(2)
      assert_equal kept, loop.pool.map(&:fiber)
      assert_equal [true, true], kept.map(&:alive?)
      assert_equal 2, loop.fibers
      assert_includes kept, Heddle.concurrent_proc { Fiber.current }.call
    end.join
  end

  def test_closing_the_scheduler_heddle_run_installed_ends_its_idle_fibers
    fibers, pooled, counted = Thread.new do
      fibers = Heddle.run { idle_fibers(10) }
      loop = Heddle::EventLoop.current
      [fibers, loop.pool.size, loop.fibers]
    end.value
    assert_equal 10, fibers.uniq.size
    assert_equal [0, 0], [pooled, counted]
    assert_equal [false], fibers.map(&:alive?).uniq
  end

  def test_another_threads_idle_fibers_are_only_forgotten
    parked = Thread::Queue.new
    go = Thread::Queue.new
    thread = Thread.new do
      fibers = idle_fibers(4)
      parked << Heddle::EventLoop.current
      go.pop
      [fibers, Heddle.concurrently { :still_runs }.await_result]
    end
    loop = parked.pop
    assert_equal 4, loop.drop_idle_fibers
    assert_equal [0, 0], [loop.pool.size, loop.fibers]
    go << true
    fibers, answer = thread.value
    assert_equal :still_runs, answer
    assert_equal [true], fibers.map(&:alive?).uniq # suspended, never resumed here
  end

  def test_an_interrupt_while_retiring_leaves_the_count_right
    Thread.new do
      loop = Heddle::EventLoop.current
      idle_fibers(6)
      victim = loop.pool[2]
      victim.singleton_class.prepend(Module.new { def retire = raise(Interrupt, "landed") })
      assert_raises(Interrupt) { loop.drop_idle_fibers }
      assert_equal [0, 0], [loop.pool.size, loop.fibers]
      assert_counts_after_two_procs(loop)
    end.join
  end

  def assert_counts_after_two_procs(loop)
    assert_equal %i[one two], [Heddle.concurrently { :one }, Heddle.concurrently { :two }].map(&:await_result)
    assert_equal [0, loop.pool.size], [loop.live, loop.fibers]
    assert_operator loop.fibers, :>=, 1
  end
end
