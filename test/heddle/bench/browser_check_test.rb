# frozen_string_literal: true

require "test_helper"
require "tmpdir"
require "open3"
require "rbconfig"
require_relative "report_fixture"

# report.html in a real browser (headless Chromium over its DevTools pipe):
# what a person sees, not what the HTML string holds. Skipped, saying why and
# how to install it, where there is no Chromium.
class BenchBrowserTest < Minitest::Test
  PUBLISHED = File.expand_path("../../../docs/results/latest", __dir__)
  PNG_SIGNATURE = "\x89PNG\r\n\x1A\n".b

  def setup
    return if Heddle::Bench::Chromium.executable

    skip "no Chromium to render report.html in (looked for #{Heddle::Bench::Chromium::NAMES.join(', ')}; " \
         "HEDDLE_CHROMIUM=path overrides); install it with: #{Heddle::Bench::Chromium::INSTALL}"
  end

  def test_the_fixture_report_reads_right_in_a_real_browser
    Dir.mktmpdir do |dir|
      Heddle::Bench::Reports.write(BenchReportFixture.results, dir)
      check = Heddle::Bench::BrowserCheck.run(File.join(dir, "report.html"))

      assert_empty check.console_errors
      assert_every_row_visible(check.charts)
      assert_empty check.broken_links
      assert_equal 3, check.answers
      assert check.first_screen_holds_answers?, "answers end at #{check.first_screen_bottom} px of #{check.viewport}"
      assert_predicate check, :legend_on_first_screen?
      assert_equal ["★ inline", "★ process"], check.verdicts
      assert_empty check.problems
    end
  end

  # The colour rule, read from the colours the browser draws: a green line that says "missed" is a problem.
  def test_a_green_line_that_misses_its_target_would_be_seen
    results = BenchReportFixture.results
    results.data["suites"]["jobs"]["answers"].first["target"] = 100
    Dir.mktmpdir do |dir|
      Heddle::Bench::Reports.write(results, dir)
      page = File.join(dir, "report.html")
      clean = Heddle::Bench::BrowserCheck.run(page)
      File.write(page, File.read(page).sub('<li class="missed">', '<li class="wins">'))
      broken = Heddle::Bench::BrowserCheck.run(page)

      assert_empty clean.green_misses
      assert_equal 1, broken.green_misses.size
      assert_includes broken.problems.last, "a green answer says missed: Trivial items over 2 processes"
    end
  end

  # A smoke run (--quick, one trial a row) says so on the first screen and judges nothing: no green or red line.
  def test_a_smoke_run_says_so_first_and_colours_no_answer
    results = BenchReportFixture.results
    results.data["options"] = { "quick" => true }
    results.data["records"].reject! { |r| r["trial"] > 1 }
    Dir.mktmpdir do |dir|
      Heddle::Bench::Reports.write(results, dir)
      check = Heddle::Bench::BrowserCheck.run(File.join(dir, "report.html"))

      assert_predicate check, :smoke?
      assert_equal 0, check.judged
      assert_equal ["smoke run: not judged"] * 2, check.verdicts
      assert_empty check.problems
    end
  end

  # jobs: trivial, heavy; calls; workers (lines).
  def assert_every_row_visible(charts)
    assert_equal [6, 5, 3, 4], charts.map(&:rows)
    charts.each { |chart| assert chart.ok?, "chart #{chart.id}: #{chart.to_h}" }
  end

  def test_the_check_sees_what_a_person_would_trip_on
    Dir.mktmpdir do |dir|
      page = File.join(dir, "bad.html")
      File.write(page, <<~HTML)
        <!DOCTYPE html><html><body><a href="#nowhere">a lost anchor</a> <a href="missing.html">a lost file</a>
        <svg class="chart" width="200" height="40" data-rows="2"><rect class="mark" data-row="a" width="0" height="9"/>
        <rect class="mark" data-row="b" x="0" y="20" width="50" height="9"/></svg>
        <script>console.error("boom from the page")</script></body></html>
      HTML
      check = Heddle::Bench::BrowserCheck.run(page)

      assert_equal ["boom from the page"], check.console_errors
      assert_equal [1], check.charts.map(&:visible)
      assert_equal ["#nowhere", "missing.html"], check.broken_links
      refute check.first_screen_holds_answers?
      refute_predicate check, :legend_on_first_screen?
      assert_equal 6, check.problems.size
    end
  end

  # The published results, rendered by `heddle bench render` in a copy of
  # their folder, read right in a browser and can be pictured (the picture goes
  # to the copy: `heddle bench render DIR --screenshot` makes the published one).
  # Only where the run was published: its results.json is not committed.
  def test_the_published_report_reads_right_and_can_be_pictured
    Dir.mktmpdir do |dir|
      png = File.join(dir, Heddle::Bench::ResultsBlock::SCREENSHOT)
      copy_published(dir)
      output, status = Open3.capture2e(RbConfig.ruby, File.expand_path("../../../exe/heddle", __dir__), "bench",
                                       "render", dir)

      assert_predicate status, :success?, output
      check = Heddle::Bench::BrowserCheck.run(File.join(dir, "report.html"), screenshot: png)

      assert_empty check.problems
      assert_predicate check, :legend_on_first_screen?
      assert(check.verdicts.all? { |v| v.match?(/\A(★ \w+|tie: [\w, ]+)\z/) }, check.verdicts.inspect)
      assert_operator check.answers, :>=, 10
      assert_equal PNG_SIGNATURE, File.binread(png, 8)
    end
  end

  private

  def copy_published(dir)
    results = File.join(PUBLISHED, "results.json")
    skip "no results.json in #{PUBLISHED} (kept only where a run is published)" unless File.file?(results)

    FileUtils.cp(results, dir)
  end
end
