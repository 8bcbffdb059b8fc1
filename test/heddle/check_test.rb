# frozen_string_literal: true

require "test_helper"
require "heddle/check"

class CheckApiTest < Minitest::Test
  C = Heddle::Check

  def test_a_passing_property_reports_every_run
    calls = 0
    result = C.check(C.property(C.integer) { |_| calls += 1 }, runs: 37, seed: 1)
    assert_predicate result, :passed?
    assert_equal 37, result.runs
    assert_equal 37, calls
    assert_equal 1, result.seed
  end

  def test_assert_raises_a_failure_with_seed_runs_shrinks_counterexample_error_and_replay
    prop = C.property(C.array(C.integer)) { |a| raise ArgumentError, "sum #{a.sum}" if a.sum > 100 }
    failure = assert_raises(Heddle::Check::Failure) { C.assert(prop, seed: 1234) }
    result = failure.result
    assert_equal [101], result.counterexample
    message = failure.message
    assert_includes message, "seed 1234"
    assert_includes message, "after #{result.runs} run"
    assert_includes message, "#{result.shrinks} shrinks"
    assert_includes message, "Counterexample: [101]"
    assert_includes message, "ArgumentError: sum 101"
    assert_includes message, "HEDDLE_CHECK_SEED=1234"
    assert_kind_of Heddle::Error, failure
  end

  def test_replaying_the_seed_gives_the_same_failure
    prop = C.property(C.ascii_string, C.nat) { |s, n| s.size + n < 40 }
    first = C.check(prop, seed: 77)
    again = C.check(prop, seed: first.seed)
    assert_equal first.counterexample, again.counterexample
    assert_equal first.original, again.original
  end

  def test_fresh_seeds_are_short
    saved = ENV.delete("HEDDLE_CHECK_SEED")
    seeds = Array.new(20) { Heddle::Check::Options.default_seed }
    assert(seeds.all? { |s| s.between?(0, (2**32) - 1) }, seeds.inspect)
    assert_operator seeds.uniq.size, :>, 1
  ensure
    ENV["HEDDLE_CHECK_SEED"] = saved if saved
  end

  def test_a_fresh_seed_replays_through_heddle_check_seed
    saved = ENV.delete("HEDDLE_CHECK_SEED")
    prop = C.property(C.array(C.integer)) { |a| a.sum <= 100 }
    first = C.check(prop, store: false) # the store would replay the first failure before any seed
    assert_includes C.check(prop, store: false).report, "set HEDDLE_CHECK_SEED="
    ENV["HEDDLE_CHECK_SEED"] = first.seed.to_s
    again = C.check(prop)
    assert_equal [first.seed, first.original, first.runs], [again.seed, again.original, again.runs]
  ensure
    saved ? ENV["HEDDLE_CHECK_SEED"] = saved : ENV.delete("HEDDLE_CHECK_SEED")
  end

  def test_the_seed_comes_from_heddle_check_seed_when_not_given
    ENV["HEDDLE_CHECK_SEED"] = "4242"
    assert_equal 4242, C.check(C.property(C.boolean) { true }, runs: 1).seed
  ensure
    ENV.delete("HEDDLE_CHECK_SEED")
  end

  def test_returning_false_fails_but_returning_nil_passes
    assert_predicate C.check(C.property(C.nat) { |_| nil }, seed: 1), :passed?
    result = C.check(C.property(C.nat) { |n| n < 10 }, seed: 1)
    assert_kind_of Heddle::Check::PropertyFalse, result.error
    assert_equal 10, result.counterexample
  end

  def test_minitest_assertions_inside_a_property_are_failures
    result = C.check(C.property(C.integer) { |x| assert_operator x, :<, 5 }, seed: 3)
    assert_kind_of Minitest::Assertion, result.error
    assert_equal 5, result.counterexample
  end

  def test_unknown_and_bad_options_are_argument_errors_naming_them
    prop = C.property(C.nat) { true }
    error = assert_raises(ArgumentError) { C.check(prop, num_run: 10) }
    assert_includes error.message, ":num_run"
    assert_includes assert_raises(ArgumentError) { C.check(prop, runs: 0) }.message, "runs"
    assert_includes assert_raises(ArgumentError) { C.check(prop, worker: :gpu) }.message, ":gpu"
    assert_raises(ArgumentError) { C.check(prop, size: -1) }
    assert_raises(TypeError) { C.check(:not_a_property) }
  end

  def test_property_argument_errors
    assert_raises(ArgumentError) { C.property(C.nat) }
    assert_raises(ArgumentError) { C.property { true } }
    assert_raises(ArgumentError) { C.property(C.nat, x: C.nat) { true } }
    assert_raises(TypeError) { C.property(5) { true } }
  end

  def test_harness_errors_are_raised_at_once_never_shrunk
    calls = 0
    prop = C.property(C.nat.filter(max_attempts: 5) { |n| n > 2_000_000 }) { |_| calls += 1 }
    assert_raises(Heddle::Check::FilterExhaustedError) { C.check(prop, seed: 1) }
    assert_equal 0, calls
  end

  def test_timeout_stops_a_hanging_property
    prop = C.property(C.nat) { |_| sleep 5 }
    assert_raises(Heddle::Check::TimeoutError) { Timeout.timeout(3) { C.check(prop, timeout: 0.2, seed: 1) } }
  end

  def test_result_reports_the_first_failure_and_the_backend
    result = C.check(C.property(C.integer) { |x| x < 1000 }, seed: 9)
    assert_operator result.original, :>=, result.counterexample
    assert_equal :inline, result.worker
    assert_predicate result, :failed?
    assert_match(/failed runs=\d+/, result.inspect)
  end
end
