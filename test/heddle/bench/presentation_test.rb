# frozen_string_literal: true

require "test_helper"
require "heddle/bench"
require "json"
require "open3"
require "rbconfig"

class BenchPresentationTest < Minitest::Test
  def suite
    Heddle::Bench::Suite.new("demo") do |s|
      s.row "job: plain", library: "ruby"
      s.row "job: heddle pool", library: "heddle"
      s.row "job: heddle inline", library: "heddle"
      s.row "job: Parallel", library: "parallel"
      s.row "other: heddle", library: "heddle"
    end
  end

  def test_a_group_resolves_its_selectors_to_row_names_and_counts_floors_among_its_rows
    s = suite
    group = s.group "job", rows: /\Ajob: (heddle|Parallel)/, floors: "job: plain",
                           pairs: { "job: heddle pool" => /Parallel/ }, note: "n"

    assert_equal ["job: heddle pool", "job: heddle inline", "job: Parallel", "job: plain"], group["rows"]
    assert_equal ["job: plain"], group["floors"]
    assert_equal({ "job: heddle pool" => ["job: Parallel"] }, group["pairs"])
    assert_equal [group], s.to_h["groups"]
  end

  def test_selectors_that_match_nothing_or_bad_pairs_raise_naming_them
    s = suite
    error = assert_raises(ArgumentError) { s.group "g", rows: /nothing here/ }
    assert_match(%r{group "g" rows: /nothing here/ matches no row of suite demo}, error.message)

    error = assert_raises(ArgumentError) { s.group "g", rows: /job/, pairs: { "job: Parallel" => "job: heddle pool" } }
    assert_match(/"job: Parallel" is not a heddle row/, error.message)

    error = assert_raises(ArgumentError) do
      s.group "g", rows: /job/, floors: "job: plain", pairs: { "job: heddle pool" => "job: plain" }
    end
    assert_match(/\["job: plain"\] are not peer rows of the group/, error.message)

    s.group "g", rows: /job/
    assert_raises(ArgumentError) { s.group "g", rows: /job/ }
  end

  def test_answers_backends_and_references_check_what_they_name
    s = suite
    s.group "job", rows: /\Ajob: /

    assert_raises(ArgumentError) { s.answer "q", group: "no such group" }
    assert_raises(ArgumentError) { s.answer "q", target: 0 }
    assert_raises(ArgumentError) { s.backends "trivial", source: "x", rows: { gpu: "job: heddle pool" } }
    assert_raises(ArgumentError) { s.reference "job: nothing", 1.0, note: "seed" }
    assert_raises(ArgumentError) { s.reference "job: Parallel", -1, note: "seed" }

    answer = s.answer "q", group: "job", heddle: /heddle pool/, against: "job: heddle inline", target: 2,
                           details: "the seed's report"

    assert_equal({ "question" => "q", "groups" => ["job"], "heddle" => ["job: heddle pool"],
                   "against" => ["job: heddle inline"], "peer" => nil, "target" => 2,
                   "details" => "the seed's report" }, answer)
  end

  def test_rows_left_out_by_rows_drop_out_of_the_declarations
    s = suite
    s.group "job", rows: /\Ajob: /, floors: "job: plain", pairs: { "job: heddle pool" => "job: Parallel" }
    s.backends "trivial", source: "demo", rows: { inline: "job: heddle inline", process: "job: heddle pool" }
    s.reference "job: Parallel", 2.0, note: "seed"
    s.keep_rows(/inline|plain/)
    shown = s.to_h

    assert_equal ["job: plain", "job: heddle inline"], shown["groups"].first["rows"]
    assert_equal({}, shown["groups"].first["pairs"])
    assert_equal({ "inline" => "job: heddle inline" }, shown["backends"].first["rows"])
    assert_empty shown["references"]
  end

  # In a child process: other tests load some suite files, and loading one twice redefines its constants.
  def test_the_shipped_suites_declare_what_the_first_screen_needs
    script = <<~RUBY
      require "json"
      require "heddle/bench"
      Heddle::Bench.load_suites
      shipped = Heddle::Bench.registry.transform_values { |s| [s.presentation.answers.size, s.presentation.backend_columns.size] }
      redis = Heddle::Bench.registry["distributed"].rows.select { |r| r.name.include?("heddle redis") }
      puts JSON.generate(errors: Heddle::Bench.load_errors, suites: shipped, redis: redis.map(&:requires),
                         columns: Heddle::Bench.registry["map"].presentation.backend_columns.map { |c| [c["title"], c["scale"]] })
    RUBY
    output, status = Open3.capture2e(RbConfig.ruby, *LibRoots::FLAGS, "-e", script)

    assert_predicate status, :success?, output
    shipped = JSON.parse(output.lines.last)

    assert_empty shipped["errors"]
    # Without heddle-redis heddle's Redis rows are skipped (one line names the gem), not FAILED.
    assert_equal [["heddle/workers/redis", "redis-client"]] * 4, shipped["redis"]
    assert_equal [["1,000 tiny items", "1,000 trivial items: plain map"],
                  ["100 CPU-heavy items", "100 CPU-heavy items: plain map"]], shipped["columns"]
    %w[map messages checks].each { |name| assert_operator shipped["suites"].fetch(name)[1], :>, 0, name }
    # A new suite may start with none: its rows then meet the rows of their compare:.
    %w[call_methods call_methods_waiting checks map messages promises scheduler scheduling spawn wait_methods]
      .each { |name| assert_operator shipped["suites"].fetch(name)[0], :>, 0, "suite #{name} answers no seed question" }
  end
end
