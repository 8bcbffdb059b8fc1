# frozen_string_literal: true

require "test_helper"
require "heddle/bench"

class BenchStatsTest < Minitest::Test
  Stats = Heddle::Bench::Stats

  def test_known_values_give_known_median_mean_and_sample_stddev
    stats = Stats.of([2, 4, 4, 4, 5, 5, 7, 9])

    assert_equal 8, stats.n
    assert_in_delta 4.5, stats.median
    assert_in_delta 5.0, stats.mean
    assert_in_delta Math.sqrt(32.0 / 7), stats.stddev, 1e-12
    assert_in_delta 2.0, stats.min
    assert_in_delta 9.0, stats.max
  end

  def test_median_sorts_before_taking_the_middle
    assert_in_delta 3.0, Stats.of([9, 1, 3]).median
    assert_in_delta 2.5, Stats.median([4, 1, 3, 2])
  end

  def test_one_value_has_zero_stddev_and_none_has_nothing
    assert_in_delta 0.0, Stats.of([7]).stddev
    empty = Stats.of([nil])

    assert_equal 0, empty.n
    assert_nil empty.median
    assert_nil empty.relative_stddev
  end

  def test_relative_stddev_is_a_fraction_of_the_mean
    assert_in_delta 0.1, Stats.of([90, 110]).relative_stddev / Math.sqrt(2), 1e-12
  end

  def test_mann_whitney_separates_disjoint_samples_and_not_equal_ones
    disjoint = Stats.mann_whitney_p([1, 2, 3, 4, 5], [11, 12, 13, 14, 15])
    same = Stats.mann_whitney_p([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])

    assert_operator disjoint, :<, 0.05
    assert_in_delta 1.0, same, 1e-9
    assert_nil Stats.mann_whitney_p([], [1])
  end

  def test_to_h_has_string_keys_for_json
    assert_equal %w[n median min max mean stddev], Stats.of([1]).to_h.keys
  end
end
