# frozen_string_literal: true

require "test_helper"

# The bounded GVL spin a thread does before it parks (Loom::Promises::Spinner).
class PromiseSpinnerTest < Minitest::Test
  Spinner = Loom::Promises::Spinner

  def test_a_resolved_promise_needs_no_spin
    assert Spinner.resolved?(Loom::Promise.fulfilled(1), nil)
    assert Spinner.resolved?(Loom::Promise.rejected(IOError), Loom::Promises::Waiting.now - 1)
  end

  def test_an_unresolved_promise_ends_the_spin_so_the_waiter_can_park
    promise = Loom::Promise.new
    refute Spinner.resolved?(promise, nil)
    refute Spinner.resolved?(promise, Loom::Promises::Waiting.now - 1)
    assert promise.pending?
  end

  def test_a_promise_fulfilled_by_another_thread_during_the_spin_is_seen
    promise = Loom::Promise.new
    resolver = Thread.new { promise.fulfill(:passed) }
    resolved = Spinner.resolved?(promise, nil)
    assert !resolved || promise.fulfilled?, "the spin reported a pending promise as resolved"
    assert resolver.join(10)
    assert_equal :passed, promise.value(10)
  end
end
