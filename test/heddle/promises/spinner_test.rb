# frozen_string_literal: true

require "test_helper"

# The opt-in bounded GVL spin a thread does before it parks (Heddle::Promises::Spinner).
class PromiseSpinnerTest < Minitest::Test
  Spinner = Heddle::Promises::Spinner

  def setup
    @passes = Spinner.passes
  end

  def teardown
    Spinner.passes = @passes
  end

  def test_auto_by_default_and_resolved_only_looks
    assert_equal :auto, Spinner.passes
    assert Spinner.resolved?(Heddle::Promise.fulfilled(1), nil)
    refute Spinner.resolved?(Heddle::Promise.new, nil)
  end

  def test_an_unresolved_promise_ends_the_spin_so_the_waiter_can_park
    Spinner.passes = 16
    promise = Heddle::Promise.new
    refute Spinner.resolved?(promise, nil)
    refute Spinner.resolved?(promise, Heddle::Promise.now - 1)
    assert Spinner.resolved?(Heddle::Promise.rejected(IOError), Heddle::Promise.now - 1)
    assert promise.pending?
  end

  def test_thread_waiters_get_their_values_with_the_spin_on
    Spinner.passes = 16
    jobs = Thread::Queue.new
    resolver = Thread.new { 200.times { |i| jobs.pop.fulfill(i) } }
    seen = Array.new(2) { Thread.new { Array.new(100) { (jobs << (p = Heddle::Promise.new)) && p.value(10) } } }
    values = seen.flat_map { |t| t.join(10)&.value }
    assert resolver.join(10)
    assert_equal (0...200).to_a, values.sort
  end

  def test_passes_must_be_a_non_negative_integer
    error = assert_raises(ArgumentError) { Spinner.passes = -1 }
    assert_match(/-1/, error.message)
    assert_raises(ArgumentError) { Spinner.passes = 1.5 }
  end
end
