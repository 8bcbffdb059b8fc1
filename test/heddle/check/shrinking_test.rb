# frozen_string_literal: true

require "test_helper"
require "heddle/check"

class CheckShrinkingTest < Minitest::Test
  C = Heddle::Check
  SEEDS = (1..25)

  def test_integer_boundary_is_found_exactly_for_every_seed
    prop = C.property(C.integer) { |x| raise "too big" if x > 10 }
    SEEDS.each do |seed|
      result = C.check(prop, seed: seed)
      assert_equal 11, result.counterexample, "seed #{seed}"
      assert_equal "too big", result.error.message
    end
  end

  def test_negative_boundary_shrinks_toward_zero
    prop = C.property(C.integer) { |x| x >= -37 }
    SEEDS.each { |seed| assert_equal(-38, C.check(prop, seed: seed).counterexample, "seed #{seed}") }
  end

  def test_array_whose_sum_exceeds_100_shrinks_to_a_single_101_for_every_seed
    prop = C.property(C.array(C.integer)) { |a| a.sum <= 100 }
    SEEDS.each { |seed| assert_equal([101], C.check(prop, seed: seed).counterexample, "seed #{seed}") }
  end

  def test_integers_cross_zero_to_the_simpler_sign
    prop = C.property(C.integer) { |x| x.abs < 5 }
    SEEDS.each { |seed| assert_equal 5, C.check(prop, seed: seed).counterexample, "seed #{seed}" }
  end

  def test_bounded_integers_shrink_to_the_bound_nearest_zero
    prop = C.property(C.integer(min: 50, max: 500)) { |x| x < 60 }
    assert_equal 60, C.check(prop, seed: 3).counterexample
  end

  def test_strings_shrink_to_the_shortest_simplest_failure
    prop = C.property(C.alphanumeric_string) { |s| s.size < 3 }
    SEEDS.first(5).each { |seed| assert_equal "aaa", C.check(prop, seed: seed).counterexample }
  end

  def test_keyword_and_positional_properties_shrink_every_argument
    prop = C.property(C.integer, C.integer) { |a, b| a + b < 50 }
    assert_equal 50, C.check(prop, seed: 4).counterexample.sum
    prop = C.property(x: C.nat, s: C.ascii_string) { |x:, s:| x < 5 || s.empty? }
    assert_equal({ x: 5, s: "a" }, C.check(prop, seed: 4).counterexample)
  end

  def test_hash_and_set_shrink_by_removing_entries
    prop = C.property(C.hash(C.symbol, C.nat)) { |h| h.size < 2 }
    assert_equal({ a: 0, b: 0 }, C.check(prop, seed: 2).counterexample)
    prop = C.property(C.set(C.nat)) { |s| s.size < 3 }
    assert_equal Set[0, 1, 2], C.check(prop, seed: 2).counterexample
  end

  def test_mapped_and_filtered_values_shrink_through_their_source
    prop = C.property(C.nat.map { |n| n * 2 }) { |x| x < 100 }
    assert_equal 100, C.check(prop, seed: 1).counterexample
    prop = C.property(C.nat.filter(&:even?)) { |x| x < 100 }
    assert_equal 100, C.check(prop, seed: 1).counterexample
  end

  def test_max_shrinks_bounds_the_steps
    prop = C.property(C.integer) { |x| x <= 100 }
    result = C.check(prop, seed: 5, max_shrinks: 1)
    assert_equal 1, result.shrinks
    assert_operator result.counterexample, :>, 100
    assert_equal result.original, C.check(prop, seed: 5, max_shrinks: 0).counterexample
  end

  def test_same_seed_same_result
    prop = C.property(C.array(C.one_of(C.integer, C.ascii_string))) { |a| a.size < 4 }
    first = C.check(prop, seed: 11)
    second = C.check(prop, seed: 11)
    assert_equal [first.counterexample, first.runs, first.shrinks], [second.counterexample, second.runs, second.shrinks]
  end
end
