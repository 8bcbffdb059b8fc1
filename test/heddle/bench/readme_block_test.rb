# frozen_string_literal: true

require "test_helper"
require "tmpdir"
require_relative "report_fixture"

class BenchReadmeBlockTest < Minitest::Test
  BLOCK = Heddle::Bench::ReadmeBlock

  def with_readme(text)
    Dir.mktmpdir do |root|
      readme = File.join(root, "README.md")
      File.write(readme, text)
      FileUtils.mkdir_p(File.join(root, "docs/results/latest"))
      Dir.chdir(root) { yield readme, root }
    end
  end

  DIR = "docs/results/latest"

  def marked(inside) = "#{BLOCK.begin_marker(DIR)}\n#{inside}\n#{BLOCK.end_marker(DIR)}"

  def test_write_replaces_only_the_block_between_its_markers
    with_readme("# Title\n\nprose before\n\n#{marked('a stale table')}\n\nprose after\n") do |readme, _root|
      BLOCK.new(BenchReportFixture.results, dir: "#{DIR}/", readme: readme).write
      written = File.read(readme)

      assert written.start_with?("# Title\n\nprose before\n\n#{BLOCK.begin_marker(DIR)}\n")
      assert written.end_with?("#{BLOCK.end_marker(DIR)}\n\nprose after\n")
      refute_includes written, "a stale table"
      assert_includes written, "- **[Trivial items over 2 processes](#{DIR}/report.html#group-jobs-trivial)**"
      assert_includes written, "### Which backend for which job"
      assert_includes written, "[report.html](#{DIR}/report.html)"
    end
  end

  def test_the_screenshot_shows_once_it_is_taken_and_rewriting_keeps_one_block
    with_readme(marked("old")) do |readme, root|
      block = BLOCK.new(BenchReportFixture.results, dir: DIR, readme: readme)
      block.write

      refute_includes File.read(readme), BLOCK::SCREENSHOT
      File.write(File.join(root, DIR, BLOCK::SCREENSHOT), "png")
      block.write
      again = File.read(readme)

      assert_includes again, "[![The first screen of report.html](#{DIR}/first-screen.png)]"
      assert_equal 1, again.scan(BLOCK.begin_marker(DIR)).size
    end
  end

  def test_a_readme_without_the_markers_is_refused_with_the_lines_to_add
    with_readme("# Title\n") do |readme, _root|
      error = assert_raises(Heddle::Bench::Error) do
        BLOCK.new(BenchReportFixture.results, dir: "docs/results/latest", readme: readme).write
      end

      assert_includes error.message, BLOCK.begin_marker("docs/results/latest")
      assert_equal "# Title\n", File.read(readme)
    end
  end

  def test_the_repository_readme_holds_the_block_of_the_checked_in_results
    readme = File.read(File.expand_path("../../../README.md", __dir__))

    assert readme.include?(BLOCK.begin_marker("docs/results/latest")), "README.md lacks the block's first marker"
    assert readme.include?(BLOCK.end_marker("docs/results/latest")), "README.md lacks the block's last marker"
  end
end
