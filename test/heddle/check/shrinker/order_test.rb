# frozen_string_literal: true

require "test_helper"
require "heddle/check"

class CheckShrinkerOrderTest < Minitest::Test
  Order = Heddle::Check::Shrinker::Order

  def test_choices_rank_by_distance_from_the_target_positive_side_first
    assert_equal([0, 1, -1, 2, -2], [2, -1, 0, -2, 1].sort_by { |v| Order.rank(v, 0) })
    assert_equal([5, 6, 7], [7, 5, 6].sort_by { |v| Order.rank(v, 5) })
    assert_equal([0.0, 1.0, -1.0, 0.5, Float::INFINITY], [Float::INFINITY, 0.5, -1.0, 1.0, 0.0].sort_by do |v|
      Order.rank(v, 0.0)
    end)
  end
end
