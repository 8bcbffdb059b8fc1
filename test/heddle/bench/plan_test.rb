# frozen_string_literal: true

require "test_helper"
require "heddle/bench"
require "stringio"

class BenchPlanTest < Minitest::Test
  Plan = Heddle::Bench::Plan

  def suites
    rate = Heddle::Bench::Suite.new(:plan_rate) do |s|
      s.trials 4
      %w[a b c].each { |name| s.row(name, library: "ruby") { |r| r.batch { nil } } }
    end
    duration = Heddle::Bench::Suite.new(:plan_duration) do |s|
      s.kind :duration
      s.trials 3
      s.row("d", library: "heddle", estimate: 0.01) { |r| r.run { nil } }
    end
    [rate, duration]
  end

  def current = Heddle::Bench::Environment.yjit? ? "yjit" : "no-yjit"

  def test_every_configuration_appears_the_requested_number_of_times
    plan = Plan.new(suites, seed: 1, variants: %w[no-yjit yjit], trials: 5, seconds: 0.1)
    counts = plan.runs.map { |run| [run.suite.name, run.row.name, run.variant] }.tally

    assert_equal 8, counts.size
    assert(counts.values.all?(5))
  end

  def test_each_configuration_gets_trials_one_to_n
    plan = Plan.new(suites, seed: 1, variants: %w[no-yjit yjit], trials: 5, seconds: 0.1)
    trials = plan.runs.group_by { |r| [r.row, r.variant] }.values.map { |runs| runs.map(&:trial).sort }

    assert_equal([(1..5).to_a] * 8, trials)
  end

  def test_suites_own_trials_are_used_when_the_budget_allows
    plan = Plan.new(suites, seed: 1, variants: [current])
    by_suite = plan.runs.group_by { |run| run.suite.name }.transform_values(&:size)

    assert_equal({ "plan_rate" => 12, "plan_duration" => 3 }, by_suite)
  end

  def test_same_seed_same_order_other_seed_other_order
    order = ->(seed) { Plan.new(suites, seed: seed, variants: [current], trials: 5).runs.map(&:label) }

    assert_equal order.call(42), order.call(42)
    refute_equal order.call(42), order.call(43)
    refute_equal order.call(42), order.call(42).sort
  end

  def test_the_order_goes_in_rounds_of_one_trial_per_configuration
    runs = Plan.new(suites, seed: 3, variants: [current], trials: 4).runs
    configurations = runs.map { |r| [r.row, r.variant] }.uniq.size

    runs.each_slice(configurations).with_index(1) do |round, trial|
      assert_equal [trial], round.map(&:trial).uniq
      assert_equal configurations, round.map { |r| [r.row, r.variant] }.uniq.size
    end
  end

  def test_rows_are_interleaved_not_grouped
    runs = Plan.new(suites, seed: 7, variants: [current], trials: 10).runs
    changes = runs.each_cons(2).count { |a, b| a.row != b.row }

    assert_operator changes, :>, runs.size / 3
  end

  def test_foreign_variant_and_isolate_run_in_a_fresh_process
    other = current == "yjit" ? "no-yjit" : "yjit"
    plan = Plan.new(suites, seed: 1, variants: [current, other], trials: 1)

    assert(plan.runs.select { |r| r.variant == other }.all?(&:isolated))
    refute(plan.runs.select { |r| r.variant == current }.any?(&:isolated))
    refute(plan.runs.any?(&:fresh))
  end

  def group_suite
    Heddle::Bench::Suite.new(:plan_groups) do |s|
      s.kind :duration
      { "shared" => true, "fresh" => :trial, "named" => :ractors, "here" => false }.each do |name, isolate|
        s.row(name, library: "ruby", isolate: isolate) { |r| r.run { nil } }
      end
    end
  end

  def test_isolate_trial_asks_for_a_fresh_process_and_groups_share_a_child
    runs = Plan.new([group_suite], seed: 1, variants: [current], trials: 2).runs
    fresh = runs.select(&:fresh).map { |r| r.row.name }
    keys = runs.map { |r| Plan.group_key(r.row, current) }.uniq

    assert_equal %w[fresh fresh], fresh
    assert_equal(%w[here], runs.reject(&:isolated).map { |r| r.row.name }.uniq)
    assert_equal 4, keys.size
  end

  def test_quick_leaves_out_rows_that_ask_for_it
    suite = Heddle::Bench::Suite.new(:plan_quick) do |s|
      s.row("small", library: "ruby") { |r| r.batch { nil } }
      s.row("big", library: "ruby", quick: false) { |r| r.batch { nil } }
    end
    quick = Plan.new([suite], seed: 1, variants: [current], quick: true)
    full = Plan.new([suite], seed: 1, variants: [current], trials: 1)

    assert_equal(%w[small], quick.runs.map { |r| r.row.name })
    assert_equal 1, quick.left_out
    assert_equal(%w[big small], full.runs.map { |r| r.row.name }.sort)
  end

  def test_isolate_all_puts_every_trial_in_a_fresh_process
    plan = Plan.new(suites, seed: 1, variants: [current], trials: 1, isolate_all: true)

    assert(plan.runs.all?(&:isolated))
    assert(plan.runs.all?(&:fresh))
  end

  def test_budget_shrinks_window_then_trials_but_not_below_the_floor
    big = Heddle::Bench::Suite.new(:plan_big) do |s|
      s.budget 5
      s.trials 10
      20.times { |i| s.row("r#{i}", library: "ruby") { |r| r.batch { nil } } }
    end
    plan = Plan.new([big], seed: 1, variants: [current])

    assert_equal [Plan::MIN_TRIALS, Plan::MIN_SECONDS], plan.size_of(big)
    assert_equal [10, 2.0], Plan.new([big], seed: 1, variants: [current], trials: 10, seconds: 2.0).size_of(big)
  end

  def test_suites_shrink_together_when_their_budgets_exceed_the_total
    many = Array.new(12) do |i|
      Heddle::Bench::Suite.new(:"plan_many_#{i}") do |s|
        s.budget 100
        10.times { |j| s.row("r#{j}", library: "ruby") { |r| r.batch { nil } } }
      end
    end
    alone = Plan.new([many.first], seed: 1, variants: [current]).size_of(many.first)
    together = Plan.new(many, seed: 1, variants: [current])

    assert_operator together.size_of(many.first)[1], :<, alone[1]
    assert_operator together.estimate, :<=, Plan::TOTAL_BUDGET * 1.05
  end

  def test_quick_uses_short_windows_and_few_trials
    plan = Plan.new(suites, seed: 1, variants: [current], quick: true)

    assert_equal [Plan::QUICK_TRIALS, Plan::QUICK_SECONDS], plan.size_of(plan.runs.first.suite)
    assert_operator plan.estimate, :<, 5
  end

  def test_skipped_rows_are_left_out
    all = suites
    skipped = { all.first.rows.first => "skipped: test" }
    plan = Plan.new(all, seed: 1, variants: [current], trials: 2, skipped: skipped)

    refute(plan.runs.any? { |r| r.row.name == "a" })
  end

  # A duration suite whose first screen reads "heddle short" against its peer "peer short" (same compare:)
  # and the floor "floor"; "heddle long" and "peer long" are only in the full report, the longest rows.
  def screened_suite
    Heddle::Bench::Suite.new(:plan_screen) do |s|
      s.kind :duration
      s.trials 3
      { "heddle short" => ["heddle", "short", 1], "peer short" => ["async", "short", 1],
        "floor" => ["ruby", nil, 1], "heddle long" => ["heddle", "long", 30], "peer long" => ["async", "long", 20],
        "peer mid" => ["async", "mid", 5] }.each do |name, (library, compare, estimate)|
        s.row(name, library: library, compare: compare, estimate: estimate) { |r| r.run { nil } }
      end
      s.group "short", rows: /short|floor/, floors: "floor"
      s.answer "Short jobs", group: "short", heddle: "heddle short"
    end
  end

  def test_first_screen_rows_are_the_answers_rows_with_their_peers_and_floors
    assert_equal ["floor", "heddle short", "peer short"], screened_suite.presentation.first_screen_rows.sort
  end

  def test_a_plan_over_its_deadline_leaves_out_rows_off_the_first_screen_costliest_first
    plan = Plan.new([screened_suite], seed: 1, variants: [current])

    assert_equal ["heddle long"], plan.rows_to_leave_out(140).map(&:name) # 3 × (30 + 20 + 5 + 3) s, then 3 × 28 s
    assert_equal ["heddle long", "peer long", "peer mid"], plan.rows_to_leave_out(1).map(&:name)
    assert_empty plan.rows_to_leave_out(1_000)
    assert_empty Plan.new([screened_suite], seed: 1, variants: [current], quick: true).rows_to_leave_out(1)
  end

  # The run says up front which rows it left out and how to measure them; the first screen's rows all ran.
  def test_a_run_over_its_deadline_says_which_rows_it_left_out
    io = StringIO.new
    results = Heddle::Bench::Runner.new([screened_suite], seed: 1, variants: [current], trials: 3, io: io,
                                                          deadline: 140).call

    assert_equal(["heddle long"], results.skipped.map { |s| s["row"] })
    assert_includes io.string, "1 row off the first screen was left out to end within the deadline (plan_screen 1): " \
                               "`heddle bench plan_screen` measures them"
    assert_equal [3], results.records.group_by { |r| r["row"] }.values.map(&:size).uniq
    assert_includes Heddle::Bench::MarkdownReport.skipped_notes(results), io.string[/1 row off.*them/]
  end
end
