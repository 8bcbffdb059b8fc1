# frozen_string_literal: true

require "test_helper"
require "loom/bench"
require "json"
require "open3"
require "rbconfig"

class BenchPresentationTest < Minitest::Test
  def suite
    Loom::Bench::Suite.new("demo") do |s|
      s.row "job: plain", library: "ruby"
      s.row "job: loom pool", library: "loom"
      s.row "job: loom inline", library: "loom"
      s.row "job: Parallel", library: "parallel"
      s.row "other: loom", library: "loom"
    end
  end

  def test_a_group_resolves_its_selectors_to_row_names_and_counts_floors_among_its_rows
    s = suite
    group = s.group "job", rows: /\Ajob: (loom|Parallel)/, floors: "job: plain",
                           pairs: { "job: loom pool" => /Parallel/ }, note: "n"

    assert_equal ["job: loom pool", "job: loom inline", "job: Parallel", "job: plain"], group["rows"]
    assert_equal ["job: plain"], group["floors"]
    assert_equal({ "job: loom pool" => ["job: Parallel"] }, group["pairs"])
    assert_equal [group], s.to_h["groups"]
  end

  def test_selectors_that_match_nothing_or_bad_pairs_raise_naming_them
    s = suite
    error = assert_raises(ArgumentError) { s.group "g", rows: /nothing here/ }
    assert_match(%r{group "g" rows: /nothing here/ matches no row of suite demo}, error.message)

    error = assert_raises(ArgumentError) { s.group "g", rows: /job/, pairs: { "job: Parallel" => "job: loom pool" } }
    assert_match(/"job: Parallel" is not a loom row/, error.message)

    error = assert_raises(ArgumentError) do
      s.group "g", rows: /job/, floors: "job: plain", pairs: { "job: loom pool" => "job: plain" }
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
    assert_raises(ArgumentError) { s.backends "trivial", source: "x", rows: { gpu: "job: loom pool" } }
    assert_raises(ArgumentError) { s.reference "job: nothing", 1.0, note: "seed" }
    assert_raises(ArgumentError) { s.reference "job: Parallel", -1, note: "seed" }

    answer = s.answer "q", group: "job", loom: /loom pool/, against: "job: loom inline", target: 2

    assert_equal({ "question" => "q", "groups" => ["job"], "loom" => ["job: loom pool"],
                   "against" => ["job: loom inline"], "peer" => nil, "target" => 2 }, answer)
  end

  def test_rows_left_out_by_rows_drop_out_of_the_declarations
    s = suite
    s.group "job", rows: /\Ajob: /, floors: "job: plain", pairs: { "job: loom pool" => "job: Parallel" }
    s.backends "trivial", source: "demo", rows: { inline: "job: loom inline", process: "job: loom pool" }
    s.reference "job: Parallel", 2.0, note: "seed"
    s.keep_rows(/inline|plain/)
    shown = s.to_h

    assert_equal ["job: plain", "job: loom inline"], shown["groups"].first["rows"]
    assert_equal({}, shown["groups"].first["pairs"])
    assert_equal({ "inline" => "job: loom inline" }, shown["backends"].first["rows"])
    assert_empty shown["references"]
  end

  # In a child process: other tests load some suite files, and loading one twice redefines its constants.
  def test_the_shipped_suites_declare_what_the_first_screen_needs
    script = <<~RUBY
      require "json"
      require "loom/bench"
      Loom::Bench.load_suites
      shipped = Loom::Bench.registry.transform_values { |s| [s.answers.size, s.backend_columns.size] }
      puts JSON.generate(errors: Loom::Bench.load_errors, suites: shipped)
    RUBY
    output, status = Open3.capture2e(RbConfig.ruby, "-I", File.expand_path("../../../lib", __dir__), "-e", script)

    assert_predicate status, :success?, output
    shipped = JSON.parse(output.lines.last)

    assert_empty shipped["errors"]
    %w[map messages checks].each { |name| assert_operator shipped["suites"].fetch(name)[1], :>, 0, name }
    # A new suite may start with none: its rows then meet the rows of their compare:.
    %w[call_methods call_methods_waiting checks map messages promises scheduler scheduling spawn wait_methods]
      .each { |name| assert_operator shipped["suites"].fetch(name)[0], :>, 0, "suite #{name} answers no seed question" }
  end
end
