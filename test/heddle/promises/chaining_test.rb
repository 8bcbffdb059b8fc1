# frozen_string_literal: true

require "test_helper"

class PromiseChainingTest < Minitest::Test
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
