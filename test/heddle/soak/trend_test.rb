# frozen_string_literal: true

require "test_helper"
require "heddle/soak"

# The soak's verdict on growth: baseline after the warm-up against the
# median of the last three samples.
class TrendTest < Minitest::Test
  Sample = Heddle::Soak::Sample

  def samples(rss, children: [0] * rss.size)
    rss.each_with_index.map { |kb, i| Sample.new(i * 10, i, i, 0, kb, 10, 3, children[i]) }
  end

  def test_flat_metrics_pass
    trend = Heddle::Soak::Trend.new(samples([90, 100, 104, 99, 103]), warmup: 10, limit: 0.10)
    assert_predicate trend, :ok?
    assert_in_delta 0.03, trend.growth[:held_kb], 0.001
    assert_match(/from t=10s to the median of the last 3 samples: held_kb \+3\.0%/, trend.to_s)
  end

  def test_a_steady_climb_fails_and_one_noisy_sample_does_not
    assert_equal [:held_kb], Heddle::Soak::Trend.new(samples([100, 100, 112, 115, 118]), warmup: 10, limit: 0.10).grown
    assert_predicate Heddle::Soak::Trend.new(samples([100, 100, 100, 150, 100]), warmup: 10, limit: 0.10), :ok?
  end

  # Samples are 10 s and 1 round apart: the baseline waits for both.
  def test_the_baseline_waits_for_the_warm_up_rounds_too
    rss = [100, 105, 110, 120, 121, 120, 122]
    assert_equal [:held_kb], Heddle::Soak::Trend.new(samples(rss), warmup: 10, limit: 0.10).grown
    trend = Heddle::Soak::Trend.new(samples(rss), warmup: 10, limit: 0.10, warmup_rounds: 3)
    assert_predicate trend, :ok?
    assert_equal 30, trend.baseline.seconds
  end

  def test_a_child_left_over_a_zero_baseline_fails
    trend = Heddle::Soak::Trend.new(samples([1, 1, 1, 1], children: [0, 0, 1, 1]), warmup: 0, limit: 0.10)
    assert_equal [:children], trend.grown
  end

  def test_no_sample_after_the_warm_up_is_no_verdict
    trend = Heddle::Soak::Trend.new(samples([1, 1]), warmup: 60, limit: 0.10)
    refute_predicate trend, :ok?
    assert_match(/no sample after the warm-up/, trend.to_s)
  end
end
