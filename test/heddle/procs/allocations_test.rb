# frozen_string_literal: true

require "test_helper"

# Objects allocated per call on the hot paths the call_methods and
# call_methods_waiting suites measure. In a window with GC off every object
# costs fresh memory and page faults (docs/core.md, "Fresh memory is what a
# GC-off window pays for"), so one more object per call is a regression this
# test fails on, whatever the timings say.
#
# The counts are exact and the same on Ruby 3.1, 3.3 and 3.3 --yjit (measured
# on each): what is allocated is the objects themselves, not interpreter
# frames, so YJIT does not change them.
class ProcAllocationsTest < Minitest::Test
  CALLS = 1_000
  # Rounds per count: another thread allocating during a round can only add
  # to its count, so the least round is this thread's own.
  ROUNDS = 10

  # Runs the block in a thread of its own, so that its loop is fresh and
  # nothing an earlier test left on this thread's loop runs in the window.
  def on_fresh_loop(&) = Thread.new(&).value

  # Asserts the objects allocated per call of the block: the least over
  # ROUNDS rounds of CALLS calls, after warm-up calls that fill the fiber
  # pool, the free lists and the method caches.
  def assert_allocations(expected, &block)
    per_call = on_fresh_loop do
      3.times(&block)
      Array.new(ROUNDS) { round(&block) }.min.quo(CALLS)
    end
    assert_equal expected, per_call, "objects allocated per call"
  end

  def round(&)
    gc_was_off = GC.disable
    before = GC.stat(:total_allocated_objects)
    CALLS.times(&)
    GC.stat(:total_allocated_objects) - before
  ensure
    GC.enable unless gc_was_off
  end

  # A proc that returns at once (made once: the blocks count its calls, not its making).
  def noop = @noop ||= Heddle.concurrent_proc { nil }

  def test_call_without_arguments_allocates_nothing
    assert_allocations(0) { noop.call }
  end

  def test_call_with_an_argument_allocates_only_the_arguments_array
    # The call methods take 8 optional parameters, not *args (no Array for a
    # call without arguments); with some, the block gets them in one Array.
    identity = Heddle.concurrent_proc { |x| x }
    assert_allocations(1) { identity.call(1) }
  end

  def test_call_nonblock_of_a_proc_that_returns_at_once_allocates_nothing
    assert_allocations(0) { noop.call_nonblock }
  end

  def test_call_and_forget_then_wait_0_allocates_nothing
    # Without arguments the proc itself is the run-queue entry (BareStart).
    assert_allocations(0) do
      noop.call_and_forget
      Heddle.wait 0
    end
  end

  def test_a_batch_of_call_and_forget_then_wait_0_allocates_nothing
    assert_allocations(0) do
      100.times { noop.call_and_forget }
      Heddle.wait 0
    end
  end

  def test_call_detached_and_await_result_allocate_the_evaluation_only
    assert_allocations(1) { noop.call_detached.await_result }
  end

  def test_a_waiting_call_allocates_the_evaluation_only
    # A run that suspends needs an evaluation to resume and to hold its result.
    waits = Heddle.concurrent_proc { Heddle.wait 0 }
    assert_allocations(1) { waits.call }
  end

  def test_a_waiting_call_nonblock_and_await_result_allocate_the_evaluation_only
    waits = Heddle.concurrent_proc { Heddle.wait 0 }
    assert_allocations(1) { waits.call_nonblock.await_result }
  end

  def test_wait_0_with_nothing_else_to_run_allocates_nothing
    assert_allocations(0) { Heddle.wait 0 }
  end
end
