# frozen_string_literal: true

require "test_helper"
require "timeout"

class PromiseTest < Minitest::Test
  def test_fulfill_then_value
    promise = Heddle::Promise.new
    assert_predicate promise, :pending?
    assert_same promise, promise.fulfill(:ok)
    assert_equal :ok, promise.value
    assert_equal :ok, promise.value!(0)
    assert_predicate promise, :fulfilled?
    assert_predicate promise, :resolved?
    refute_predicate promise, :rejected?
    assert_equal :fulfilled, promise.state
  end

  def test_fulfill_twice_raises_a_clear_error
    promise = Heddle::Promise.new.fulfill(1)
    error = assert_raises(Heddle::Promise::AlreadyResolvedError) { promise.fulfill(2) }
    assert_kind_of Heddle::Error, error
    assert_match(/fulfill\(2\).*already fulfilled with 1.*reset/, error.message)
    assert_raises(Heddle::Promise::AlreadyResolvedError) { promise.reject(ArgumentError) }
    assert_equal 1, promise.value
  end

  def test_try_fulfill_reports_who_won
    promise = Heddle::Promise.new
    assert promise.try_fulfill(1)
    refute promise.try_fulfill(2)
    refute promise.try_reject(RuntimeError)
    assert_equal 1, promise.value
  end

  def test_rejected_promise_raises_in_value_and_value_bang
    error = KeyError.new("missing")
    promise = Heddle::Promise.new.reject(error)
    assert_predicate promise, :rejected?
    assert_same error, promise.reason
    assert_same error, assert_raises(KeyError) { promise.value }
    assert_same error, assert_raises(KeyError) { promise.value!(1) }
    assert promise.wait(0)
  end

  def test_reject_takes_an_exception_class
    promise = Heddle::Promise.rejected(ArgumentError)
    assert_instance_of ArgumentError, promise.reason
  end

  def test_reject_needs_an_exception
    error = assert_raises(TypeError) { Heddle::Promise.new.reject("oops") }
    assert_match(/"oops".*fulfill/, error.message)
  end

  def test_timeouts
    promise = Heddle::Promise.new
    refute promise.wait(0)
    refute promise.wait(0.01)
    assert_nil promise.value(0.01)
    error = assert_raises(Heddle::Promise::TimeoutError) { promise.value!(0.01) }
    assert_match(/0.01/, error.message)
    assert_predicate promise, :pending?
  end

  def test_bad_timeout
    assert_raises(ArgumentError) { Heddle::Promise.new.wait(-1) }
    assert_raises(ArgumentError) { Heddle::Promise.new.wait(Float::NAN) }
    error = assert_raises(TypeError) { Heddle::Promise.new.value("1") }
    assert_match(/timeout .*"1"/, error.message)
  end

  def test_infinity_waits_for_ever_like_nil_from_a_thread_and_a_fiber
    promise = Heddle::Promise.new
    waiter = Thread.new { promise.value(Float::INFINITY) }
    Thread.pass while waiter.status == "run"
    promise.fulfill(:late)
    assert_equal :late, waiter.value
    other = Heddle::Promise.new
    fiber = Heddle.concurrently { other.value!(Float::INFINITY) }
    Heddle.wait 0
    other.fulfill(:fiber)
    assert_equal :fiber, fiber.await_result(within: 30)
  end

  def test_reset_reuses_a_promise
    promise = Heddle::Promise.fulfilled(1)
    assert_same promise, promise.reset
    assert_predicate promise, :pending?
    assert_nil promise.peek
    promise.fulfill(2)
    assert_equal 2, promise.value
  end

  def test_constructors
    assert_equal 5, Heddle::Promise.fulfilled(5).value
    assert_predicate Heddle::Promise.rejected(RuntimeError.new("x")), :rejected?
  end

  def test_inspect_names_state_and_value
    assert_match(/pending/, Heddle::Promise.new.inspect)
    assert_match(/fulfilled 42/, Heddle::Promise.fulfilled(42).inspect)
  end

  def test_a_wait_interrupted_by_an_exception_leaves_no_waiter_behind
    promise = Heddle::Promise.new
    assert_raises(Timeout::Error) { Timeout.timeout(0.02) { promise.wait } }
    # The interrupted wait unregistered its parker; a later wait still works.
    Thread.new { promise.fulfill(:later) }
    assert_equal :later, promise.value(5)
  end

  # Callbacks, chaining and the combinators (all, any).

  def test_then_maps_the_value_when_it_arrives
    source = Heddle::Promise.new
    mapped = source.then { |v| v * 2 }.then { |v| v + 1 }
    assert_predicate mapped, :pending?
    source.fulfill(20)
    assert_equal 41, mapped.value(1)
  end

  def test_then_on_a_resolved_promise_runs_at_once
    calls = []
    Heddle::Promise.fulfilled(1).then { |v| calls << v }
    assert_equal [1], calls
  end

  def test_then_passes_a_rejection_through_and_rejects_on_a_raising_block
    error = IOError.new("down")
    assert_same error, Heddle::Promise.rejected(error).then { :never }.reason
    failing = Heddle::Promise.fulfilled(1).then { raise ArgumentError, "bad mapping" }
    assert_equal "bad mapping", assert_raises(ArgumentError) { failing.value!(1) }.message
  end

  def test_rescue_recovers_matching_errors_only
    assert_equal "KeyError", Heddle::Promise.rejected(KeyError).rescue { |e| e.class.name }.value(1)
    assert_equal 5, Heddle::Promise.fulfilled(5).rescue { :never }.value(1)
    unmatched = Heddle::Promise.rejected(KeyError).rescue(IOError) { :never }
    assert_instance_of KeyError, unmatched.reason
  end

  def test_on_resolve_runs_in_the_resolving_thread
    promise = Heddle::Promise.new
    ran_in = nil
    promise.on_resolve { ran_in = Thread.current }
    resolver = Thread.new { promise.fulfill(:x) }
    resolver.join(5)
    assert_same resolver, ran_in
  end

  def test_blocks_are_required
    assert_raises(ArgumentError) { Heddle::Promise.new.then }
    assert_raises(ArgumentError) { Heddle::Promise.new.rescue }
    assert_raises(ArgumentError) { Heddle::Promise.new.on_resolve }
  end

  def test_all_keeps_input_order_and_fails_fast
    a = Heddle::Promise.new
    b = Heddle::Promise.new
    both = Heddle::Promise.all([a, b])
    b.fulfill(:b)
    assert_predicate both, :pending?
    a.fulfill(:a)
    assert_equal %i[a b], both.value(1)
    c = Heddle::Promise.new
    failed = Heddle::Promise.all([c, Heddle::Promise.rejected(EOFError)])
    assert_instance_of EOFError, failed.reason
    assert_equal [], Heddle::Promise.all([]).value(1)
  end

  def test_any_takes_the_first_value_or_every_error
    slow = Heddle::Promise.new
    first = Heddle::Promise.any([slow, Heddle::Promise.rejected(IOError), Heddle::Promise.fulfilled(:fast)])
    assert_equal :fast, first.value(1)
    errors = [IOError.new("a"), EOFError.new("b")]
    none = Heddle::Promise.any(errors.map { |e| Heddle::Promise.rejected(e) })
    rejection = assert_raises(Heddle::Promise::AllRejectedError) { none.value!(1) }
    assert_equal errors, rejection.errors
    assert_raises(ArgumentError) { Heddle::Promise.any([]) }
    assert_raises(TypeError) { Heddle::Promise.all([1]) }
  end

  def test_any_across_threads
    promises = Array.new(4) { Heddle::Promise.new }
    winner = Heddle::Promise.any(promises)
    threads = promises.each_with_index.map { |p, i| Thread.new { p.fulfill(i) } }
    threads.each { |t| t.join(5) }
    assert_includes 0..3, winner.value(5)
  end
end
