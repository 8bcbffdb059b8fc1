# frozen_string_literal: true

require "test_helper"
require "json"
require "open3"
require "rbconfig"
require "heddle/bench"

# Two recorded runs of one machine (Ruby 3.1.2, 2 cores, 25 Nov 2026: the
# first under load, 13 before it started, the second on a quiet machine 70
# minutes later) rendered with the suites' presentation as it is now. The
# report's advice must not contradict itself between them: a ★ in one run is
# the same ★, or a tie that holds that backend, in the other; no heddle row
# wins in one and loses in the other. Ties may differ: noise widens them.
class BenchTwoRunsTest < Minitest::Test
  RUNS = File.expand_path("fixtures/runs", __dir__)

  # The suites are loaded in a child ruby (loading them again here would redefine the
  # constants other tests loaded, which Ruby warns about); it gives back each run with the
  # suites' presentation, as `heddle bench render` does.
  PRESENT = <<~RUBY
    require "json"
    require "zlib"
    require "heddle/bench"
    Heddle::Bench.load_suites
    runs = ARGV.map do |file|
      data = JSON.parse(Zlib.gunzip(File.binread(file)))
      Heddle::Bench::Results.new(data).with_presentation(Heddle::Bench.registry).data
    end
    puts JSON.generate(runs)
  RUBY

  def self.findings
    @findings ||= begin
      files = %w[loaded quiet].map { |name| File.join(RUNS, "ruby-3.1-#{name}.json.gz") }
      output, status = Open3.capture2(RbConfig.ruby, *LibRoots::FLAGS, "-e", PRESENT, *files)
      raise "presenting the runs failed: #{output[0, 500]}" unless status.success?

      JSON.parse(output).map { |data| Heddle::Bench::Findings.new(Heddle::Bench::Results.new(data)) }
    end
  end

  def findings = self.class.findings

  def test_the_backend_table_gives_the_same_star_or_a_tie_that_holds_it
    loaded, quiet = findings.map { |f| f.backend_table.columns.to_h { |c| [c.title, c] } }

    assert_equal loaded.keys, quiet.keys
    assert_includes loaded.keys, "1,000 tiny items"
    loaded.each do |title, column|
      other = quiet.fetch(title)
      [[column, other], [other, column]].each do |one, two|
        next unless one.winner

        assert_includes [two.winner, *two.tied], one.winner, "#{title}: ★ #{one.winner}, the other run: #{two.verdict}"
      end
    end
  end

  def test_some_columns_agree_on_a_star_and_the_medians_alone_would_have_flipped
    loaded, quiet = findings.map { |f| f.backend_table.columns }

    assert_equal ["★ inline", "★ fiber"], loaded.map(&:verdict).grep(/★/)
    assert_equal "tie: process, ractor", quiet.find { |c| c.title == "100 CPU-heavy items" }.verdict
    by_median = [loaded, quiet].map { |cols| cols.map { |c| c.measured.max_by { |_, row| row.speed }.first } }

    refute_equal(*by_median, "the fixture should hold a column whose fastest median differs between the runs")
  end

  def test_no_heddle_row_wins_in_one_run_and_loses_in_the_other
    loaded, quiet = findings.map { |f| f.verdicts.to_h { |v| [[v.row.suite_name, v.row.name], v.outcome] } }
    contradictions = (loaded.keys & quiet.keys).select do |key|
      [loaded[key], quiet[key]].sort == %w[loses wins]
    end

    assert_operator (loaded.keys & quiet.keys).size, :>, 50
    assert_empty contradictions
  end

  def test_no_answer_is_green_in_one_run_and_red_in_the_other
    loaded, quiet = findings.map { |f| f.answers.to_h { |a| [a.question, a.css] } }
    flips = loaded.select { |question, css| [css, quiet[question]].sort == %w[loses wins] }

    assert_equal loaded.keys, quiet.keys
    assert_empty flips
  end
end
