# frozen_string_literal: true

require "test_helper"
require "heddle/bench"
require "stringio"
require "tmpdir"

class BenchRunnerTest < Minitest::Test
  FIXTURES = File.expand_path("fixtures", __dir__)

  # One run shared by the tests: it spawns isolated trials, which take a while.
  def self.results
    @results ||= new("shared").run_fixtures
  end

  def run_fixtures(trials: 2)
    load File.join(FIXTURES, "demo_rate.rb")
    load File.join(FIXTURES, "demo_duration.rb")
    suites = %w[demo_rate demo_duration].map { |name| Heddle::Bench.registry.fetch(name) }
    io = StringIO.new
    variant = Heddle::Bench::Environment.yjit? ? "yjit" : "no-yjit"
    results = Heddle::Bench::Runner.new(suites, seed: 5, variants: [variant], trials: trials, seconds: 0.01,
                                                quick: true, io: io).call
    [results, io.string]
  end

  def results = self.class.results

  def records_of(row)
    results.first.records.select { |r| r["row"] == row }
  end

  def test_failing_rows_are_recorded_and_the_run_goes_on
    assert(records_of("raises").all? { |r| r["status"] == "failed" && r["error"].include?("boom from the demo") })
    assert(records_of("reports failures").all? { |r| r["status"] == "failed" })
    assert(records_of("heddle push 1").all? { |r| r["status"] == "ok" })
  end

  def test_missing_requires_skip_the_row_with_a_note
    skipped = results.first.skipped

    assert_equal(["needs a missing gem"], skipped.map { |s| s["row"] })
    assert_match(/no_such_gem_for_heddle_bench/, skipped.first["reason"])
    assert_empty records_of("needs a missing gem")
    assert_match(/^  Not installed: no_such_gem_for_heddle_bench \(1 row\); those rows were skipped/, results.last)
  end

  def test_isolated_rows_run_in_another_process_and_count_its_children
    forked = records_of("forked sum")

    assert_equal 2, forked.size
    assert(forked.all? { |r| r["isolated"] && r["status"] == "ok" && r["pid"] != Process.pid })
    assert(forked.all? { |r| r["children_cpu_seconds"].positive? })
  end

  def test_isolated_trials_record_their_process_s_speed_and_in_process_ones_do_not
    isolated = records_of("forked sum") + records_of("own process")

    assert(isolated.all? { |r| r["process_speed_ns"].is_a?(Float) && r["process_speed_ns"].positive? })
    refute(results.first.records.any? { |r| !r["isolated"] && r.key?("process_speed_ns") })
  end

  def test_isolated_rows_of_a_suite_share_one_child_and_trial_rows_get_their_own
    shared = (records_of("forked sum") + records_of("pid")).map { |r| r["pid"] }
    own = records_of("own process").map { |r| r["pid"] }

    assert_equal 4, shared.size
    assert_equal 1, shared.uniq.size
    assert_equal 2, own.uniq.size
    refute_includes own, shared.first
  end

  # The forking child loads no row's requires: a peer loaded there (once,
  # Concurrently) was in every later fork, and heddle's trials failed.
  def test_a_rows_requires_stay_in_its_own_forked_trials
    peer = records_of("loads a peer")
    later = records_of("own process").select { |r| r["order"] > peer.map { |p| p["order"] }.min }

    assert(peer.all? { |r| r["status"] == "ok" && r.dig("metrics", "peer") == 1 })
    refute_empty later, "seed 5 must run an own-process trial after a peer's"
    assert_equal([0] * later.size, later.map { |r| r.dig("metrics", "peer") })
  end

  def test_trial_rows_run_in_a_process_forked_for_each_trial
    own = records_of("own process")

    assert_equal([1, 1], own.map { |r| r.dig("metrics", "runs_in_process") })
    # no Timeout thread beside the job: the parent enforces the limit
    assert_equal([1, 1], own.map { |r| r.dig("metrics", "threads") })
    assert(records_of("pid").all? { |r| r.dig("metrics", "threads") == 2 }, "a shared child's trial runs under Timeout")
    first, second = records_of("own process dies once").sort_by { |r| r["trial"] }
    assert_equal "failed", first["status"]
    assert_match(/forked trial exited/, first["error"])
    assert_equal "ok", second["status"]
  end

  def test_a_child_that_dies_fails_its_trial_and_the_next_gets_a_new_one
    first, second = records_of("dies once").sort_by { |r| r["trial"] }

    assert_equal "failed", first["status"]
    assert_match(/trial process exited/, first["error"])
    assert_equal "ok", second["status"]
  end

  def test_a_failed_trial_retires_its_child
    first, second = records_of("fails once").sort_by { |r| r["trial"] }

    assert_equal %w[failed ok], [first["status"], second["status"]]
    refute_equal first["pid"], second["pid"]
  end

  def test_seed_and_environment_are_recorded_and_printed
    data = results.first.data

    assert_equal 5, data["seed"]
    assert_match(/seed 5 \(repeat with --seed 5\)/, results.last)
    %w[date cpu_model cores load_average_before load_average_after gems ruby gc].each do |key|
      assert data["environment"].key?(key), "environment lacks #{key}"
    end
    assert_equal Heddle::VERSION, data.dig("environment", "gems", "heddle")
  end

  def test_progress_is_one_plain_line_per_trial_when_not_a_terminal
    lines = results.last.lines.grep(%r{^\[\d+/\d+\] })

    assert_equal results.first.records.size, lines.size
    assert_match(%r{^\[1/\d+\] demo_\w+/.+ \[(no-)?yjit\] trial \d/2: .+ \(ETA \d+s\)$}, lines.first)
  end

  def test_every_record_has_its_order_in_the_shuffled_plan
    orders = results.first.records.map { |r| r["order"] }

    assert_equal (1..orders.size).to_a, orders
  end

  def test_every_record_has_the_load_average_its_trial_started_under
    loads = results.first.records.map { |r| r["load"] }

    skip "no /proc/loadavg here" unless File.readable?("/proc/loadavg")
    assert(loads.all? { |l| l.is_a?(Float) && l >= 0 }, loads.inspect)
  end

  # The report's note tells other programs' share of the CPU from the run's own, trial by trial and overall.
  # A trial too short for CpuSampler::MIN_TICKS has no share of its own; the run as a whole has one.
  def test_the_run_and_its_long_enough_trials_have_their_shares_of_the_machine_s_cpu
    skip "no procfs here" unless File.readable?("/proc/stat")
    refute_nil results.first.environment["cpu_share"]
    shares = results.first.records.filter_map { |r| r["cpu"] } << results.first.environment["cpu_share"]

    shares.each { |share| assert_share(share) }
  end

  def assert_share(share)
    assert_equal %w[other own], share.keys.sort
    assert(share.values.all? { |v| v.between?(0.0, 1.0) } && share.values.sum <= 1.002, share.inspect)
  end

  def test_json_round_trip_keeps_every_record
    Dir.mktmpdir do |dir|
      results.first.write(dir)
      read = Heddle::Bench::Results.read(dir)

      assert_equal JSON.parse(JSON.generate(results.first.data)), read.data
      assert_equal results.first.records.size, read.records.size
    end
  end

  # A deadline the first three rounds already pass drops the later rounds whole: every row keeps three trials.
  def test_a_deadline_drops_whole_rounds_past_the_third_and_says_so
    results, io = run_demo_rate(deadline: 0.0001)
    per_row = results.records.group_by { |r| r["row"] }.transform_values(&:size)

    assert_equal [3], per_row.values.uniq, per_row.inspect
    assert_nil results.data["stopped"]
    assert_equal({ "deadline" => 0.0001, "planned_trials" => per_row.size * 5, "dropped_trials" => per_row.size * 2,
                   "rounds" => 3, "planned_rounds" => 5 }, results.data["fitted"])
    assert_match(/every row stops at 3 trials \(#{per_row.size * 2} trials fewer than planned\)/, io)
    assert_fitted_note(results)
  end

  def assert_fitted_note(results)
    assert_equal 3, results.data.dig("sizes", "demo_rate", "trials")
    report = Heddle::Bench::MarkdownReport.new(results).render

    assert_includes report, "- Trials: at most 3 per row, of the 5 planned"
    refute_includes report, "Run stopped"
  end

  def test_a_deadline_the_rounds_fit_in_drops_nothing
    results, io = run_demo_rate(deadline: 1e6)

    assert_equal [5], results.records.group_by { |r| r["row"] }.values.map(&:size).uniq
    assert_nil results.data["fitted"]
    refute_match(/stops at/, io)
  end

  def run_demo_rate(deadline:)
    load File.join(FIXTURES, "demo_rate.rb")
    io = StringIO.new
    suites = [Heddle::Bench.registry.fetch("demo_rate")]
    results = Heddle::Bench::Runner.new(suites, seed: 1, variants: [variant], trials: 5, seconds: 0.01, quick: true,
                                                io: io, deadline: deadline).call
    [results, io.string]
  end

  def variant = Heddle::Bench::Environment.yjit? ? "yjit" : "no-yjit"

  def test_reading_something_else_is_a_clear_error
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, "results.json"), "{\"schema\": \"other\"}")
      error = assert_raises(Heddle::Bench::Error) { Heddle::Bench::Results.read(dir) }

      assert_match(/not heddle bench results/, error.message)
    end
  end
end
