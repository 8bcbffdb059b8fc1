# frozen_string_literal: true

require "test_helper"
require "heddle/bench"

# RoundFit prices the rounds left from the trials measured and drops, whole,
# the later rounds that would end past the deadline; the first three always run.
class BenchRoundFitTest < Minitest::Test
  Run = Heddle::Bench::Plan::Run

  # Two rows, six rounds, in round order as a Plan builds them.
  def runs(trials: 6) = (1..trials).flat_map { |t| %w[a b].map { |row| Run.new(row: row, variant: "v", trial: t) } }

  # Every trial took a second: the first three rounds took 6 s.
  def fit_after_three_rounds(deadline)
    fit = Heddle::Bench::RoundFit.new(runs, deadline: deadline)
    fit.runs.first(6).each { |run| fit.record(run, 1.0) }
    fit
  end

  def test_the_rounds_that_would_end_past_the_deadline_are_dropped_whole
    fit = fit_after_three_rounds(8.5) # 2.5 s left: round 4 (2 × 1.1 s) fits, round 5 does not

    assert_equal 4, fit.fit!(6, 6.0)
    assert_equal 4, fit.dropped
    assert_equal [1, 1, 2, 2, 3, 3, 4, 4], fit.runs.map(&:trial)
    assert_nil fit.fit!(7, 6.0), "only a round's first run decides"
  end

  def test_rounds_that_fit_are_kept
    fit = fit_after_three_rounds(100)

    assert_nil fit.fit!(6, 6.0)
    assert_equal 12, fit.runs.size
    assert_equal 0, fit.dropped
  end

  def test_the_first_three_rounds_always_run_and_no_deadline_drops_nothing
    fit = Heddle::Bench::RoundFit.new(runs, deadline: 1)

    assert_nil fit.fit!(2, 50.0) # round 2: kept whatever the clock says
    assert_nil fit.fit!(4, 50.0)
    assert_equal 3, fit.fit!(6, 50.0) # round 4: past the deadline, so rounds 4–6 go
    assert_equal 6, fit.runs.size
    assert_nil Heddle::Bench::RoundFit.new(runs, deadline: nil).fit!(6, 1e9)
  end

  def test_a_bad_deadline_is_refused
    assert_raises(ArgumentError) { Heddle::Bench::RoundFit.new(runs, deadline: 0) }
    assert_raises(ArgumentError) { Heddle::Bench::RoundFit.new(runs, deadline: "840") }
  end
end
