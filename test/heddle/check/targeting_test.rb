# frozen_string_literal: true

require "test_helper"
require "heddle/check"

# target: steers generation towards higher scores, in the driver, reproducibly.
class CheckTargetingTest < Minitest::Test
  C = Heddle::Check
  SEEDS = (1..20)
  NEEDLE = 123_456_789

  def arbitrary = C.integer(min: 0, max: 1_000_000_000)

  def closeness = ->(x) { -(x - NEEDLE).abs }

  # The best score of a seed's check, without steering (computed in the block) and with.
  def best_scores(seed)
    without = nil
    C.check(C.property(arbitrary) { |x| without = [without, closeness.call(x)].compact.max }, seed: seed)
    [without, C.check(C.property(arbitrary) { true }, seed: seed, target: closeness).statistics.best]
  end

  def test_a_target_gets_closer_to_its_best_than_the_same_runs_without
    scores = SEEDS.map { |seed| best_scores(seed) }
    better = scores.count { |without, with| with > without }
    assert_operator better, :>, SEEDS.size / 2, scores.inspect
    assert_operator scores.sum(&:last), :>, scores.sum(&:first)
  end

  def test_steering_is_reproducible_and_the_same_on_every_backend
    prop = C.property(arbitrary) { true }
    inline = C.check(prop, seed: 5, target: closeness).statistics.best
    assert_equal inline, C.check(prop, seed: 5, target: closeness).statistics.best
    assert_equal inline, C.check(prop, seed: 5, target: closeness, worker: :thread, size: 2).statistics.best
  end

  def test_a_failure_found_by_a_steered_case_shrinks_as_any
    prop = C.property(C.array(C.integer(min: 0, max: 1000))) { |a| a.sum < 5000 }
    result = C.check(prop, seed: 2, target: lambda(&:sum))
    assert result.failed?
    assert_equal 5000, result.counterexample.sum
  end
end
