# frozen_string_literal: true

require "test_helper"
require "heddle/check"

class CheckShrinkerTest < Minitest::Test
  C = Heddle::Check
  Shrinker = Heddle::Check::Shrinker

  # Shrinks the failing case of a property directly, with candidates
  # evaluated batch_size at a time: the first failing one of each batch wins,
  # as every runner does.
  def shrink(property, values, batch_size:, max_steps: 1000)
    replay = lambda do |prefix, hole|
      choices = Heddle::Check::Choices.replay(prefix, hole)
      raw = property.arbitrary.generate(choices, 30)
      Shrinker::Candidate.new(choices, raw, property.args(raw))
    end
    test = lambda do |batch|
      batch.each_with_index do |candidate, i|
        property.call(candidate.args)
      rescue StandardError => e
        return [i, e]
      end
      nil
    end
    start = replay.call(values, nil)
    Shrinker.new(start, nil, max_steps: max_steps, batch_size: batch_size, replay: replay, test: test).run
  end

  def fresh_values(arbitrary, seed)
    choices = Heddle::Check::Choices.fresh(Random.new(seed))
    arbitrary.generate(choices, 30)
    choices.values
  end

  def test_the_outcome_does_not_depend_on_the_batch_size
    property = C.property(C.array(C.integer)) { |a| a.sum <= 100 && a.uniq.size == a.size }
    values = fresh_values(C.array(C.integer), 4)
    shrinkers = [1, 3, 8, 64].map { |size| shrink(property, values, batch_size: size) }
    outcomes = shrinkers.map { |s| [s.best.args, s.steps] }
    assert_equal [outcomes[0]] * 4, outcomes
    assert_equal [101], outcomes[0][0]
  end

  def test_equal_values_are_lowered_together
    prop = C.property(C.integer, C.integer) { |a, b| a != b || a < 1000 }
    (1..10).each { |seed| assert_equal [1000, 1000], C.check(prop, seed: seed).counterexample, "seed #{seed}" }
  end

  def test_two_values_move_together_to_keep_their_difference
    prop = C.property(C.integer(min: 0), C.integer(min: 0)) { |a, b| a < 50 || b - a != 1 }
    results = (1..10).map { |seed| C.check(prop, seed: seed) }.select(&:failed?)
    assert_operator results.size, :>=, 8, "integers step from one another: b == a + 1 is found"
    results.each { |r| assert_equal [50, 51], r.counterexample, "seed #{r.seed}" }
  end

  def test_a_branch_is_replaced_by_a_subtree_of_the_same_recursion
    tree = C.recursive(C.integer(min: 0)) { |t| C.tuple(t, t) }
    prop = C.property(tree) { |t| [t].flatten.all? { |leaf| leaf < 7 } }
    (1..10).each { |seed| assert_equal 7, C.check(prop, seed: seed).counterexample, "seed #{seed}" }
  end

  # [1, 127] sums to -128 as signed bytes: no deletion or lowering keeps that sum.
  def test_a_merged_number_wraps_around_its_range_as_fixed_width_sums_do
    wrap8 = ->(n) { ((n + 128) % 256) - 128 }
    property = C.property(C.array(C.integer(min: -128, max: 127), max: 3)) { |a| wrap8.call(a.sum) != -128 }
    assert_equal [-128], shrink(property, [1, 1, 1, 127, 0], batch_size: 8).best.args
  end

  # The first list is at its max: deleting one of its elements must not make it read the second's.
  def test_deleting_from_a_full_collection_leaves_the_next_collection_alone
    lists = C.array(C.integer(min: 0, max: 10), max: 3)
    property = C.property(lists, lists) { |_, b| !b.include?(5) }
    assert_equal [[], [5]], shrink(property, [1, 0, 1, 0, 1, 0, 1, 5, 0], batch_size: 8).best.args
  end

  # jqwik's heap (1, 0) (1, 1, 0, 0) ...: (0, (1), (0, (1), (0))) fails, and only dropping
  # the first (1) while swapping the last two subtrees reaches the minimum.
  def test_a_swap_that_passes_alone_is_tried_with_another_span_replaced_by_a_descendant
    calls = [0]
    property = ShrinkingChallenges.binheap_bind.build.call(calls)
    stuck = [0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0]
    assert_equal [0, nil, [0, [0, nil, nil], [1, nil, nil]]], shrink(property, stuck, batch_size: 8).best.args
  end

  def test_max_steps_stops_the_shrinker_on_the_case_it_kept_last
    property = C.property(C.integer) { |x| x < 10 }
    shrinker = shrink(property, [1_000_000], batch_size: 8, max_steps: 2)
    assert_equal 2, shrinker.steps
    assert_operator shrinker.best.args, :>=, 10
  end
end
