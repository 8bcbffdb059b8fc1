# frozen_string_literal: true

require "test_helper"
require "heddle/check"

class CheckChoicesTest < Minitest::Test
  C = Heddle::Check
  Choices = Heddle::Check::Choices

  def fresh(arbitrary, seed: 1, size: 20)
    choices = Choices.fresh(Random.new(seed))
    [arbitrary.realize(arbitrary.generate(choices, size)), choices]
  end

  def replay(arbitrary, values, hole = nil, size: 20)
    choices = Choices.replay(values, hole)
    [arbitrary.realize(arbitrary.generate(choices, size)), choices]
  end

  ARBITRARIES = [C.array(C.integer), C.tuple(C.boolean, C.ascii_string, C.float),
                 C.integer.bind { |n| C.array(C.nat(max: 9), min: n.abs % 4, max: n.abs % 4) },
                 C.one_of(C.nil, C.hash(C.symbol, C.nat)), C.nat.filter(&:even?).map(&:to_s)].freeze

  def test_a_replay_of_the_recorded_values_builds_the_same_value
    ARBITRARIES.each do |arbitrary|
      (1..20).each do |seed|
        value, choices = fresh(arbitrary, seed: seed)
        assert_equal [value], [replay(arbitrary, choices.values).first], "#{arbitrary.inspect} seed #{seed}"
      end
    end
  end

  def test_a_replay_records_ranges_targets_and_element_spans
    _, choices = replay(C.array(C.integer(min: 5, max: 9)), [1, 7, 1, 9, 0])
    assert_equal [1, 7, 1, 9, 0], choices.values
    assert_equal [0, 5, 0, 5, 0], choices.targets
    assert_equal [1, 9, 1, 9, 1], choices.maxs
    assert_equal [[0, 2], [2, 4]], choices.span_starts.zip(choices.span_ends)
    assert_equal [true, true], choices.span_elements
  end

  def test_elements_of_two_collections_of_one_arbitrary_tell_which_collection_they_are_in
    list = C.array(C.integer(min: 0, max: 9), max: 2)
    value, choices = replay(C.tuple(list, list, C.integer), [1, 3, 1, 4, 1, 5, 0, 6])
    assert_equal [[3, 4], [5], 6], value
    elements = choices.span_elements.each_index.select { |i| choices.span_elements[i] }
    seen = elements.map { |i| [choices.span_collections[i], choices.span_labels[i]] }
    assert_equal [[1, list], [1, list], [2, list]], seen
    assert_equal choices.span_labels.size, choices.span_collections.size
  end

  def test_reading_past_the_end_or_out_of_range_gives_simple_values
    assert_equal [], replay(C.array(C.integer), []).first
    assert_equal [5, 9], replay(C.tuple(C.integer(min: 5, max: 9), C.integer(min: 5, max: 9)), [0, 100]).first
    assert_equal [0, 1], replay(C.tuple(C.integer, C.integer), [0.5, 1]).first, "a Float where an Integer was"
  end

  def test_a_hole_draws_one_span_in_its_simplest_form_and_reads_on_after_it
    expression = C.lazy { C.one_of(C.integer, C.tuple(C.constant(:+), expression, expression)) }
    value, choices = replay(C.tuple(expression, C.integer), [1, 0, 5, 0, 6, 42])
    assert_equal [[:+, 5, 6], 42], value
    assert_equal [[:+, 0, 6], 42], replay(C.tuple(expression, C.integer), choices.values, [2, 3]).first
    assert_equal [0, 42], replay(C.tuple(expression, C.integer), choices.values, [0, 5]).first
  end

  def test_rand_answers_like_random_and_records_every_draw
    choices = Choices.fresh(Random.new(3))
    values = [choices.rand, choices.rand(10), choices.rand(3..5), choices.rand(2.5), choices.bytes(2)]
    assert values[0].between?(0, 1) && values[1].between?(0, 9) && values[2].between?(3, 5)
    assert_equal 2, values[4].bytesize
    assert_equal 6, choices.values.size
    assert_raises(ArgumentError) { choices.rand(:x) }
  end

  # An arbitrary written against Random: it shrinks through the draws it records.
  class Dice < Heddle::Check::Arbitrary
    def generate(rng, _size) = Array.new(1 + rng.rand(4)) { 1 + rng.rand(6) }
  end

  def test_a_custom_arbitrary_that_draws_from_rand_shrinks_too
    result = C.check(C.property(Dice.new) { |dice| dice.sum < 9 }, seed: 2)
    assert_equal 9, result.counterexample.sum
    assert_operator result.counterexample.size, :<=, 2
  end
end
