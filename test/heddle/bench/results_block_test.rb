# frozen_string_literal: true

require "test_helper"
require "tmpdir"
require_relative "report_fixture"

class BenchResultsBlockTest < Minitest::Test
  BLOCK = Heddle::Bench::ResultsBlock

  def with_page(text)
    Dir.mktmpdir do |root|
      page = File.join(root, "page.md")
      File.write(page, text)
      FileUtils.mkdir_p(File.join(root, "docs/results/latest"))
      Dir.chdir(root) { yield page, root }
    end
  end

  DIR = "docs/results/latest"

  def marked(inside) = "#{BLOCK.begin_marker(DIR)}\n#{inside}\n#{BLOCK.end_marker(DIR)}"

  def test_write_replaces_only_the_block_between_its_markers
    with_page("# Title\n\nprose before\n\n#{marked('a stale table')}\n\nprose after\n") do |page, _root|
      BLOCK.new(BenchReportFixture.results, dir: "#{DIR}/", page: page).write
      written = File.read(page)

      assert written.start_with?("# Title\n\nprose before\n\n#{BLOCK.begin_marker(DIR)}\n")
      assert written.end_with?("#{BLOCK.end_marker(DIR)}\n\nprose after\n")
      refute_includes written, "a stale table"
      assert_includes written, "- **Trivial items over 2 processes**"
      assert_includes written, "### Which backend for which job"
      assert_includes written, "[report.md](#{DIR}/report.md)"
      refute_includes written, "report.html)", "the block links only to what is committed"
    end
  end

  def test_the_screenshot_shows_once_it_is_taken_and_rewriting_keeps_one_block
    with_page(marked("old")) do |page, root|
      block = BLOCK.new(BenchReportFixture.results, dir: DIR, page: page)
      block.write

      refute_includes File.read(page), BLOCK::SCREENSHOT
      File.write(File.join(root, DIR, BLOCK::SCREENSHOT), "png")
      block.write
      again = File.read(page)

      assert_includes again, "[![The first screen of report.html](#{DIR}/first-screen.png)]"
      assert_equal 1, again.scan(BLOCK.begin_marker(DIR)).size
    end
  end

  def test_a_page_without_the_markers_is_refused_with_the_lines_to_add
    with_page("# Title\n") do |page, _root|
      error = assert_raises(Heddle::Bench::Error) do
        BLOCK.new(BenchReportFixture.results, dir: "docs/results/latest", page: page).write
      end

      assert_includes error.message, BLOCK.begin_marker("docs/results/latest")
      assert_equal "# Title\n", File.read(page)
    end
  end

  def test_the_bench_guide_holds_the_block_of_each_checked_in_results_folder
    page = File.read(File.expand_path("../../../docs/bench.md", __dir__))

    %w[docs/results/latest docs/results/ruby-3.1].each do |dir|
      assert page.include?(BLOCK.begin_marker(dir)), "docs/bench.md lacks #{dir}'s first marker"
      assert page.include?(BLOCK.end_marker(dir)), "docs/bench.md lacks #{dir}'s last marker"
    end
  end
end
