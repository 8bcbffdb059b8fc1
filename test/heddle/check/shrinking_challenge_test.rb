# frozen_string_literal: true

require "test_helper"
require "heddle/check"

# The Shrinking Challenge (github.com/jlink/shrinking-challenge): every row,
# natural forms included (bound5_jqwik, binheap_bind), on seeds 1..20 at
# heddle's defaults (100 runs unless the row says otherwise, default
# max_shrinks), inline; at most one seed of a row may miss the challenge's
# minimum (95%). The rows are test/support/shrinking_challenges.rb; the
# table is printed after the run. bench/scripts/check/shrinking_challenge.rb
# runs the same rows on 100 seeds with evaluations per shrink, beside pbt
# 0.7.0 and the challenge repository's reports.
class CheckShrinkingChallengeTest < Minitest::Test
  SEEDS = (1..20)
  SHARE = 0.95
  TABLE = {} # rubocop:disable Style/MutableConstant -- filled by the tests, printed after the run

  Minitest.after_run do
    next if TABLE.empty?

    puts "\nShrinking Challenge, seeds #{SEEDS}: share on the minimum, median shrink steps"
    TABLE.sort.each { |name, line| puts "  #{name.ljust(30)} #{line}" }
  end

  ShrinkingChallenges.rows.each do |row|
    define_method(:"test_#{row.name}_reaches_its_minimum_on_95_percent_of_seeds") do
      outcomes = SEEDS.map { |seed| ShrinkingChallenges.run(row, seed) }
      minimal = outcomes.count { |o| o[:minimal] }
      steps = outcomes.map { |o| o[:shrinks] }.sort[outcomes.size / 2]
      TABLE[row.name] = "#{(100 * minimal / outcomes.size).to_s.rjust(3)}%  #{steps.to_s.rjust(4)} steps"
      misses = outcomes.each_with_index.reject { |o, _| o[:minimal] }.first(3)
                       .map { |o, i| "seed #{SEEDS.first + i}: #{o[:counterexample].inspect}" }
      assert_operator minimal, :>=, SHARE * outcomes.size,
                      "#{row.name}: #{minimal}/#{outcomes.size} on #{row.minimum}; #{misses.join('; ')}"
    end
  end

  def test_every_row_counts_evaluations_and_fails_on_the_minimum_itself
    ShrinkingChallenges.rows.each do |row|
      outcome = ShrinkingChallenges.run(row, 1)
      assert outcome[:found], row.name
      assert_operator outcome[:evaluations], :>=, outcome[:shrinks], row.name
      calls = [0]
      property = row.build.call(calls)
      assert_raises(Exception, row.name) { property.call(outcome[:counterexample]) } if outcome[:minimal]
    end
  end
end
