# frozen_string_literal: true

require "test_helper"
require "heddle/bench"

class BenchTrialTest < Minitest::Test
  include FreshRuby

  def measure(kind, &)
    suite = Heddle::Bench::Suite.new(:trial_test) { |s| s.kind kind }
    row = suite.row("row", library: "heddle", &)
    Heddle::Bench::Trial.new(row, trial: 1, seconds: 0.01, warmup: 0.005).call
  end

  def test_a_duration_row_runs_its_warmups_untimed_before_the_timed_run
    suite = Heddle::Bench::Suite.new(:trial_test) { |s| s.kind :duration }
    runs = []
    row = suite.row("row", library: "heddle", warmups: 4) { |r| r.run { |_state, ctx| runs << ctx.quick? } }
    record = Heddle::Bench::Trial.new(row, trial: 1, seconds: 0.01, warmup: 0.005).call
    assert_equal "ok", record["status"]
    assert_operator runs.size, :>=, 5
    assert_equal ([true] * (runs.size - 1)) + [false], runs, "at least four quick warm-up passes, then the timed run"
    assert_raises(ArgumentError) { suite.row("bad", library: "heddle", warmups: 0) }
  end

  def test_rate_counts_whole_batches_and_reports_wall_and_cpu
    calls = 0
    record = measure(:rate) do |r|
      r.setup(&:batch_size)
      r.batch { |size, _ctx| calls += size }
    end

    assert_equal "ok", record["status"]
    assert_equal 0, record["executions"] % 100
    assert_operator calls, :>=, record["executions"]
    assert_in_delta record["executions"] / record["wall_seconds"], record["value"], 1e-6
    assert_operator record["cpu_seconds"], :>=, 0
    assert_equal "off", record["gc"]
  end

  def test_gc_is_back_on_after_a_rate_window
    measure(:rate) { |r| r.batch { nil } }

    refute GC.disable # returns whether it was disabled before
  ensure
    GC.enable
  end

  def test_a_short_duration_job_is_warmed_several_times_before_its_timed_run
    runs = 0
    record = measure(:duration) { |r| r.run { runs += 1 } }
    assert_equal "ok", record["status"]
    assert_equal Heddle::Bench::Trial::WARM_PASSES + 1, runs
  end

  def test_a_long_duration_job_is_warmed_once
    runs = 0
    record = measure(:duration) { |r| r.run { (runs += 1) && sleep(Heddle::Bench::Trial::WARM_SHORT * 1.5) } }
    assert_equal "ok", record["status"]
    assert_equal 2, runs
  end

  def test_duration_times_the_job_apart_from_setup_and_keeps_metrics
    record = measure(:duration) do |r|
      r.setup { [1, 2, 3] }
      r.run { |items, _ctx| { sum: items.sum } }
    end

    assert_equal "ok", record["status"]
    assert_equal({ "sum" => 6 }, record["metrics"])
    assert_operator record["setup_seconds"], :>=, 0
    assert_in_delta record["wall_seconds"], record["value"]
  end

  def test_a_raising_row_is_a_failed_record_and_teardown_still_runs
    torn_down = false
    record = measure(:rate) do |r|
      r.setup { :state }
      r.batch { raise ArgumentError, "broken row" }
      r.teardown { |state, _ctx| torn_down = (state == :state) }
    end

    assert_equal "failed", record["status"]
    assert_match(/ArgumentError: broken row/, record["error"])
    assert torn_down
  end

  def test_reported_failures_fail_the_trial
    record = measure(:duration) { |r| r.run { { failures: 3 } } }

    assert_equal "failed", record["status"]
    assert_match(/3 failures/, record["error"])
  end

  def test_a_row_without_its_block_fails_with_a_message
    record = measure(:duration) { |r| r.setup { nil } }

    assert_match(/has no r.run block/, record["error"])
  end

  def test_children_cpu_is_counted_after_they_are_reaped
    record = measure(:duration) do |r|
      r.run { Process.wait(fork { 200_000.times { |i| i * i } }) }
    end

    assert_equal "ok", record["status"]
    assert_operator record["children_cpu_seconds"], :>, 0
  end

  def test_a_hung_row_fails_at_its_time_limit
    suite = Heddle::Bench::Suite.new(:trial_hang) { |s| s.kind :duration }
    row = suite.row("hangs", library: "heddle", timeout: 0.2) { |r| r.run { sleep 5 } }
    hung = Heddle::Bench::Trial.new(row, trial: 1, seconds: 0.01, warmup: 0).call

    assert_equal "failed", hung["status"]
    assert_match(/TrialTimeout: trial ran past its limit/, hung["error"])
  end

  def test_missing_requires_give_a_skip_note
    suite = Heddle::Bench::Suite.new(:trial_requires)
    row = suite.row("x", library: "peer", requires: ["no_such_file_for_heddle_bench_test"])

    assert_match(/skipped: cannot load such file -- no_such_file_for_heddle_bench_test/, row.load_requirements)
    assert_nil suite.row("y", library: "ruby", requires: ["json"]).load_requirements
  end

  def test_isolated_rows_requires_are_found_but_not_loaded_here
    suite = Heddle::Bench::Suite.new(:trial_resolve)
    row = suite.row("x", library: "ruby", requires: ["pstore"], isolate: true)
    missing = suite.row("y", library: "ruby", requires: ["no_such_file_for_heddle_bench_test"], isolate: true)

    assert_nil row.load_requirements(resolve_only: true)
    refute defined?(PStore), "pstore was loaded"
    assert_match(/skipped: cannot load such file/, missing.load_requirements(resolve_only: true))
  end

  # Under Bundler a checkout's heddle declares an extension RubyGems thinks unbuilt, and
  # Gem::Specification.find_by_path warned of it ("Ignoring heddle-0.1.0 because its
  # extensions are not built") when a row's require was missing: the check prints nothing.
  def test_a_missing_isolated_require_is_noted_without_a_rubygems_warning
    script = <<~RUBY
      require "heddle/bench"
      row = Heddle::Bench::Suite.new(:quiet).row("y", library: "ruby", requires: ["no_such_file_for_heddle_bench_test"], isolate: true)
      print row.load_requirements(resolve_only: true)
    RUBY
    status, out, err = run_fresh_ruby(script)

    assert status.success?, err
    assert_match(/skipped: cannot load such file/, out)
    assert_empty err
  end

  def test_dsl_rejects_bad_values_with_a_message_naming_them
    suite = Heddle::Bench::Suite.new(:dsl)

    assert_raises(ArgumentError) { suite.kind :speed }
    assert_raises(ArgumentError) { suite.trials 0 }
    suite.row("same", library: "ruby")
    error = assert_raises(ArgumentError) { suite.row("same", library: "ruby") }
    assert_match(/"same"/, error.message)
  end
end
