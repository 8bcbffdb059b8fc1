# frozen_string_literal: true

require "test_helper"
require_relative "report_fixture"

class BenchFindingsTest < Minitest::Test
  def findings = @findings ||= Heddle::Bench::Findings.new(BenchReportFixture.results)

  def verdict(name) = findings.verdicts.find { |v| v.row.name == name }

  def answer(question) = findings.answers.find { |a| a.question == question }

  def test_a_heddle_row_meets_only_its_paired_peer_never_a_floor
    process = verdict("trivial: heddle process")

    # Parallel threads (1.7 ms) and the plain map are faster, but neither does the job on 2 processes.
    assert_equal "trivial: Parallel processes", process.peer.name
    assert_equal "wins", process.outcome
    assert_equal "trivial: plain map", process.floor.name
    assert_in_delta 0.33 / 0.042 * (0.331 / 0.33), process.ratio, 0.01
    assert_operator process.floor_ratio, :<, 0.01
  end

  def test_heddle_rows_without_a_peer_are_measured_against_the_floor_only
    inline = verdict("trivial: heddle inline")

    assert_nil inline.peer
    assert_equal "floor only", inline.outcome
    assert_match(/slower than the baseline/, inline.to_s)
    refute(findings.verdicts.any? { |v| v.row.suite_name == "jobs" && v.outcome == "loses" })
  end

  def test_without_declared_groups_a_suite_is_one_group_of_compare_peers
    groups = findings.groups_of("calls")

    assert_equal 1, groups.size
    assert_predicate groups.first, :whole_suite?
    assert_equal "Concurrently call", verdict("heddle call").peer.name
    assert_equal "best peer", findings.peer_note(findings.summaries.find { |s| s.name == "Concurrently call" })
    assert_equal "baseline", findings.peer_note(findings.summaries.find { |s| s.name == "heavy: plain map" })
  end

  def test_answers_name_the_peer_the_ratio_the_floor_and_the_target
    line = answer("Trivial items over 2 processes")

    assert_equal "wins", line.css
    assert_match(/\Aheddle process 7\.\d\d× faster than Parallel processes; /, line.text)
    assert_match(/; \d+\.\d\d× slower than plain map \(the baseline\) · target ≥ 5×: met\z/, line.text)
    assert_equal "group-jobs-trivial", line.anchor
  end

  def test_an_answer_against_another_row_reports_that_ratio
    line = answer("Heavy items on 2 cores")

    assert_match(/\Aheddle process 1\.84× faster than heddle inline\z/, line.text)
    assert_equal "neutral", line.css
  end

  def test_a_suite_without_groups_answers_with_a_range_and_a_count
    assert_match(/\Aheddle call 3\.29× faster than Concurrently call · target ≥ 2×: met\z/,
                 answer("Concurrent procs vs Concurrently").text)
  end

  def test_answers_with_one_question_merge_across_suites
    merged = BenchReportFixture.results.data
    merged["suites"]["workers"]["answers"] = [{ "question" => "Concurrent procs vs Concurrently", "groups" => nil,
                                                "heddle" => nil, "against" => "peer", "peer" => nil, "target" => 2 }]
    answers = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(merged)).answers
    line = answers.find { |a| a.question == "Concurrent procs vs Concurrently" }

    assert_equal 3, answers.size

    assert_equal 3, line.items.size
    assert_match(/\Aheddle 0\.\d\d–3\.29× the speed of their peers /, line.text)
    assert_match(/ \(3 rows: 1 faster, 1 slower, 1 tied\) · target ≥ 2×: met on 1 of 3\z/, line.text)
    assert_equal "missed", line.css
  end

  # One colour rule: a line is green only when it beats its peer and meets its target; a miss is red.
  def test_a_win_that_misses_its_target_is_red_not_green
    data = BenchReportFixture.results.data
    data["suites"]["jobs"]["answers"].first["target"] = 100
    line = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(data)).answers.first

    assert_match(/7\.88× faster than Parallel processes; .* target ≥ 100×: missed\z/, line.text)
    assert_equal "missed", line.css
    assert_equal "wins", answer("Trivial items over 2 processes").css
  end

  def test_a_tie_says_tie_with_the_range_its_trials_allow_and_a_beaten_baseline_says_why
    findings = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(faster_heavy_process))

    assert_equal "heddle process 5.09× faster than Parallel processes; 5.79× faster than plain map: beyond noise, " \
                 "so the baseline is no floor for this job", findings.answers.find { |a| a.question == "Heavy" }.text
    assert_equal "tie (range 0.82–1.00×)", findings.verdicts.find { |v| v.row.name == "heddle 1" }.to_s
  end

  def test_the_backend_table_stars_a_backend_that_beats_every_other_beyond_noise
    table = findings.backend_table

    assert_equal(%w[trivial CPU-heavy], table.columns.map(&:job))
    assert_equal %w[inline thread process], table.backends
    trivial, heavy = table.columns

    assert_equal "inline", trivial.winner
    assert_equal "0.210 ms ★", table.cell(trivial, "inline")
    assert_equal "42.0 ms (200.0×)", table.cell(trivial, "process")
    assert_equal "★ process", heavy.verdict
    assert_equal "failed", table.cell(heavy, "thread")
  end

  # fiber's trials overlap thread's, both beat inline: a tie, and the others' (n×) against the faster tied one.
  def test_overlapping_ranges_make_a_tie_naming_the_tied_backends_and_plain_ruby_is_only_for_scale
    table = tie_table
    column = table.columns.first

    assert_nil column.winner
    assert_equal %w[fiber thread], column.tied
    assert_equal "tie: fiber, thread", column.verdict
    cells = %w[fiber thread inline].map { |b| table.cell(column, b) }

    assert_equal ["9.00 ms (tie)", "10.0 ms (tie)", "40.0 ms (4.4×)"], cells
    assert_equal "5.00 ms (0.56×)", table.scale_cell(column)
    assert_equal(%w[tie tie behind], %w[fiber thread inline].map { |b| table.css(column, b) })
  end

  # A run without the peer gems: heddle's rows still answer, with their own figure and the baseline.
  def test_an_answer_whose_peer_was_not_measured_still_gives_heddles_own_figure
    data = BenchReportFixture.results.data
    data["records"].reject! { |r| r["library"] == "parallel" }
    line = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(data)).answers.first

    assert_equal "heddle process 42.00 ms; the row to compare it with was not measured; 381.82× slower than " \
                 "plain map (the baseline)", line.text
    assert_equal "neutral", line.css
  end

  def test_a_column_of_single_trials_is_not_judged_not_a_tie
    data = BenchReportFixture.results.data
    data["records"].reject! { |r| r["trial"] > 1 }
    trivial = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(data)).backend_table.columns.first

    assert_nil trivial.winner
    assert_empty trivial.tied
    assert_equal "not judged: 1 trial", trivial.verdict
  end

  # A smoke run (--quick): figures, no verdict, target, colour or "unsure"; it says what it is, first.
  def test_a_smoke_run_shows_figures_and_judges_nothing
    data = BenchReportFixture.results.data
    data["options"] = { "quick" => true }
    data["records"].reject! { |r| r["trial"] > 1 }
    results = Heddle::Bench::Results.new(data)
    answers = Heddle::Bench::Findings.new(results).answers

    assert_equal ["neutral"] * 3, answers.map(&:css)
    assert_equal "heddle process 8.25× the speed of Parallel processes · smoke run: not judged", answers.first.text
    answers.each { |a| refute_match(/target|missed|met|faster|slower|unsure|tie/, a.text) }
    assert_says_it_is_a_smoke_run_first(results)
  end

  def assert_says_it_is_a_smoke_run_first(results)
    markdown = Heddle::Bench::MarkdownReport.new(results).render

    assert_operator markdown.index("**Smoke run (`heddle bench --quick`)"), :<, markdown.index("## Answers")
    assert_match(/^== answers \(\S+\) ==\nSmoke run \(heddle bench --quick\)/,
                 Heddle::Bench::TerminalReport.new(results).render)
  end

  # The question stays in a user's words; where it comes from goes to the notes under the answers.
  def test_an_answer_s_details_go_to_the_notes_not_the_question
    results = BenchReportFixture.results
    results.data["suites"]["jobs"]["answers"].first["details"] = "the seed's own report"
    screen = Heddle::Bench::FirstScreen.new(Heddle::Bench::Findings.new(results)).render

    assert_includes screen, "- **Trivial items over 2 processes**: "
    assert_includes screen, "Where the questions come from: Trivial items over 2 processes: the seed's own report."
    assert_includes Heddle::Bench::HtmlReport.new(results).render,
                    %(<li class="wins" title="the seed&#39;s own report">)
  end

  # A peer's own failure (a buggy promise the article measured) must not read as heddle breaking.
  def test_a_peers_failed_row_says_it_is_the_peers_own
    data = BenchReportFixture.results.data
    data["records"].each { |r| r.merge!("status" => "failed", "error" => "3 failures") if r["row"] =~ /Parallel thr/ }
    rows = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(data)).summaries
    peer = rows.find { |r| r.name == "trivial: Parallel threads" }

    assert_equal "FAILED, Parallel's own row, not heddle's (3/3): 3 failures", peer.seed_result
    assert_equal "3/3 (Parallel's own row, not heddle's): 3 failures", peer.failure_note(50)
    assert_match(%r{\AFAILED \(2/2\)}, rows.find { |r| r.name == "heavy: heddle thread" }.seed_result)
  end

  # heddle process at 0.3× its time on heavy items: beyond plain map's range; an answer about it.
  def faster_heavy_process
    data = BenchReportFixture.results.data
    data["records"].each { |r| r["value"] *= 0.3 if r["row"] == "heavy: heddle process" && r["value"] }
    data["suites"]["jobs"]["answers"] << { "question" => "Heavy", "groups" => ["heavy"], "heddle" => nil,
                                           "against" => "peer", "peer" => nil, "target" => nil }
    data
  end

  def tie_table
    rows = { "job: plain map" => ["ruby", "j", [0.004, 0.005, 0.006]],
             "job: heddle inline" => ["heddle", "j", [0.039, 0.04, 0.041]],
             "job: heddle fiber" => ["heddle", "j", [0.008, 0.009, 0.0105]],
             "job: heddle thread" => ["heddle", "j", [0.0095, 0.01, 0.011]] }
    present = BenchResultsFactory.present(rows.transform_values(&:first)) do |s|
      s.backends "trivial", title: "a job", source: "the test", scale: "job: plain map",
                            rows: %w[inline fiber thread].to_h { |w| [w, "job: heddle #{w}"] }
    end
    results = BenchResultsFactory.build("s" => { kind: "duration", rows: rows, present: present })
    Heddle::Bench::Findings.new(results).backend_table
  end

  def test_rows_no_declared_group_holds_are_drawn_in_other_rows
    data = BenchReportFixture.results.data
    data["suites"]["jobs"]["groups"].pop # forget "heavy"
    groups = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(data)).groups_of("jobs")

    assert_equal ["trivial", "Other rows"], groups.map(&:name)
    assert_equal 5, groups.last.rows.size
  end
end
