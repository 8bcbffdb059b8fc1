# frozen_string_literal: true

require "test_helper"
require_relative "results_factory"
require_relative "report_fixture"

class BenchReportTest < Minitest::Test
  def results
    BenchResultsFactory.build(
      "calls" => { kind: "rate", rows: {
        "proc.call" => ["ruby", "call", [100.0, 110.0, 120.0]],
        "conproc.call" => ["heddle", "call", [200.0, 210.0, 220.0]],
        "broken" => ["heddle", nil, [nil, nil]]
      } },
      "workers" => { kind: "duration", chart: { "x" => "workers" }, rows: {
        "heddle 1" => ["heddle", "w1", [1.0, 1.1], { "workers" => 1 }],
        "heddle 4" => ["heddle", "w4", [0.5, 0.6], { "workers" => 4 }],
        "parallel 1" => ["parallel", "w1", [0.9, 1.0], { "workers" => 1 }],
        "parallel 4" => ["parallel", "w4", [0.4, 0.45], { "workers" => 4 }]
      } }
    )
  end

  def test_html_has_one_chart_per_group_and_a_mark_per_row
    html = Heddle::Bench::HtmlReport.new(BenchReportFixture.results).render
    charts = html.scan(%r{<svg class="chart".*?</svg>}m)

    assert_equal 4, charts.size # jobs: trivial and heavy; calls; workers
    charts.each do |chart|
      rows = chart[/data-rows="(\d+)"/, 1].to_i

      assert_equal rows, chart.scan('class="mark"').size, chart[0, 200]
      assert_equal rows, chart.scan(/data-row="([^"]+)"/).uniq.size
    end
    assert_equal 2, html.scan("<polyline").size # two series over workers: heddle and parallel
    assert_includes html, %(<figure id="group-jobs-trivial"><h3>trivial</h3>)
    assert_includes html, "failed (2/2 trials)"
    assert_includes html, "code of heddle call"
    refute_match(/<script|src=|href="http/, html)
  end

  def test_a_chart_spanning_more_than_100x_is_logarithmic_and_shows_the_seeds_figures
    html = Heddle::Bench::HtmlReport.new(BenchReportFixture.results).render
    trivial, heavy = html.scan(%r{<figure id="group-jobs-(?:trivial|heavy)">.*?</figure>}m)

    assert_includes trivial, "shorter is better), log scale" # 100 µs to 0.34 s
    refute_includes heavy, "log scale" # 0.37 s to 0.71 s
    assert_includes trivial, %(<g class="reference">)
    assert_includes trivial, "the seed&#39;s figure: 0.5000 s (the seed&#39;s machine)"
    assert_includes trivial, "plain map (baseline)"
  end

  def test_the_first_screen_comes_first_and_a_suite_without_a_seed_says_so
    html = Heddle::Bench::HtmlReport.new(BenchReportFixture.results).render
    markdown = Heddle::Bench::MarkdownReport.new(BenchReportFixture.results).render
    places = ['id="answers"', 'id="backends"', 'id="environment"', 'id="verdicts"', 'id="suite-jobs"']

    assert_equal(places.map { |p| html.index(p) }.sort, places.map { |p| html.index(p) })
    assert_operator markdown.index("## Answers"), :<, markdown.index("## Which backend for which job")
    assert_operator markdown.index("## Which backend for which job"), :<, markdown.index("## Environment")
    [html, markdown].each do |page|
      assert_includes page, "Not from a seed report: a job of heddle's own."
      refute_match(%r{Reproduces (<code></code>|``)?\.}, page)
    end
    assert_includes html, %(<li class="wins"><b><a href="#group-jobs-trivial">Trivial items over 2 processes</a></b>)
    assert_match(/^\| inline \| 0\.210 ms ★ \| 700 ms \(1\.8×\) \|$/, markdown)
    assert_match(/^\| \*\*verdict\*\* \| \*\*★ inline\*\* \| \*\*★ process\*\* \|$/, markdown)
  end

  def test_skipped_peers_say_how_to_install_them
    results = BenchReportFixture.results
    skip_note = ->(file) { "skipped: cannot load such file -- #{file} (requires: #{file})" }
    results.data["skipped"] = { "Concurrently call" => "concurrently", "x" => "concurrent" }.map do |row, file|
      { "suite" => "calls", "row" => row, "reason" => skip_note.call(file) }
    end
    markdown = Heddle::Bench::MarkdownReport.new(results).render

    line = "Not installed: concurrently (1 row), concurrent-ruby (1 row); those rows were skipped, heddle's own " \
           "rows ran. Add them: in heddle's checkout `bundle install` (Gemfile group :peers); beside an installed " \
           "heddle, `gem install concurrently concurrent-ruby`."

    refute_includes markdown, "- calls/Concurrently call: skipped"
    assert_includes markdown, "## Skipped\n\n- #{line}"
    assert_operator markdown.index("**#{line}**"), :<, markdown.index("## Answers")
  end

  def test_lines_over_a_wide_span_use_a_log_scale_and_dash_the_peers
    wide = BenchResultsFactory.build(
      "w" => { kind: "duration", chart: { "x" => "workers" }, rows: {
        "heddle 1" => ["heddle", "1", [0.001, 0.002], { "workers" => 1 }],
        "heddle 9" => ["heddle", "9", [1.0, 1.1], { "workers" => 9 }],
        "peer 1" => ["peer", "1", [0.01, 0.02], { "workers" => 1 }],
        "peer 9" => ["peer", "9", [0.5, 0.6], { "workers" => 9 }]
      } }
    )
    html = Heddle::Bench::HtmlReport.new(wide).render

    assert_includes html, "lower is better), log scale"
    assert_equal 2, html.scan("stroke-dasharray").size # the peer's line and its legend
  end

  def test_markdown_has_summary_tables_and_code
    markdown = Heddle::Bench::MarkdownReport.new(results).render

    assert_match(/\| calls \| calls \| conproc.call \| proc.call \(ruby\) \| 1.91 \| 1.91 \| wins: 1.91× faster \|/,
                 markdown)
    assert_match(/\| workers \| workers \| heddle 4 \| parallel 4 \(parallel\) \| 0.77 \| – \| loses: 1.29× slower \|/,
                 markdown)
    assert_match(/\| heddle 1 \| parallel 1 \(parallel\) \| .* tie \(range 0\.82–1\.00×\)/, markdown)
    assert_includes markdown, "```ruby\ncode of proc.call\n```"
    assert_match(%r{\| broken \| heddle \| – \|.*\| 2/2: Boom: failed \|}, markdown)
  end

  # A run says which path heddle's scheduler io hooks took (the C path or
  # pure Ruby) and which selector, as it says which Ruby and GC setting: the
  # IO rows depend on them.
  def test_the_environment_names_the_io_hooks_path_and_selector_the_run_measured
    env = Heddle::Bench::Environment.capture(keep_gc: false)
    assert_equal Heddle::Scheduler::NATIVE_IO ? "C path" : "pure Ruby", env["heddle_io_hooks"]

    assert_equal Heddle::EventLoop::IOWatch.backend.name[/(Epoll|NIO|Select)Watch\z/, 1].downcase.sub("nio", "nio4r"),
                 env["heddle_selector"]

    run = results
    run.environment["heddle_io_hooks"] = "pure Ruby"
    run.environment["heddle_selector"] = "nio4r"
    assert_includes Heddle::Bench::MarkdownReport.new(run).render,
                    "heddle's scheduler io hooks: pure Ruby · selector: nio4r"
    assert_includes Heddle::Bench::HtmlReport.new(run).render, "heddle&#39;s scheduler io hooks: pure Ruby"
  end

  def test_terminal_report_uses_the_seeds_words_and_ratio_to_the_best_peer
    text = Heddle::Bench::TerminalReport.new(results).render

    assert_match(/^conproc.call: +210 executions in 1.0000 seconds .*1.91× faster than proc.call/, text)
    assert_match(/^proc.call: .*best peer/, text)
    assert_match(/^heddle 1: +1.0500 s median +\[1.0000 s–1.1000 s\]/, text)
    assert_match(%r{^broken: +FAILED \(2/2\): Boom: failed}, text)
  end

  def test_compare_flags_only_changes_beyond_the_min_max_ranges
    old = results
    new = BenchResultsFactory.build(
      "calls" => { kind: "rate", rows: {
        "proc.call" => ["ruby", "call", [105.0, 115.0, 118.0]],
        "conproc.call" => ["heddle", "call", [300.0, 310.0, 320.0]]
      } }
    )
    text = Heddle::Bench::Comparison.new(old, new).render

    assert_match(%r{calls/conproc.call/no-yjit: .* \+47.6% speed  FASTER}, text)
    assert_match(%r{calls/proc.call/no-yjit: .* same \(within noise\)}, text)
    assert_match(%r{only in old: .*workers/heddle 1}, text)
    assert_match(/1 of 2 rows changed beyond the noise/, text)
  end
end
