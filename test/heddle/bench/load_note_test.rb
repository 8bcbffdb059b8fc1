# frozen_string_literal: true

require "test_helper"
require_relative "report_fixture"

# The first screen says when a run's load exceeded the machine's cores, and
# names the rows of that screen it may have moved.
class BenchLoadNoteTest < Minitest::Test
  def test_no_note_while_the_load_stays_within_the_cores
    note = load_note(before: 1.5, after: 1.9)

    refute_predicate note, :exceeded?
    assert_nil note.text
    refute_includes markdown(before: 1.5, after: 1.9), "Load:"
  end

  def test_a_load_above_the_cores_is_said_with_the_widely_spread_rows_of_the_first_screen
    note = load_note(before: 3.5, after: 1.0)

    assert_predicate note, :exceeded?
    # trivial: Parallel processes 0.33–0.34 is tight; heavy: heddle thread failed; the calls' rows spread < 1.5×.
    assert_equal ["trivial: heddle process"], note.rows.map(&:name)
    assert_match(/\ALoad: the 1-minute load average reached 3\.5 \(before 3\.5, after 1\.0\) on 2 cores/, note.text)
    assert_includes note.text, "the 1 row of this screen whose slowest trial took 1.5× the fastest or more, " \
                               "widest: trivial: heddle process (1.8×)"
    assert_operator markdown(before: 3.5, after: 1.0).index("**Load:"), :<, markdown(before: 3.5, after: 1.0)
      .index("## Answers")
  end

  def test_with_each_trials_load_only_rows_measured_under_load_are_named
    data = fixture(before: 1.0, after: 1.0)
    data["records"].each { |r| r["load"] = r["row"] == "trivial: heddle process" ? 1.2 : 0.5 }
    data["records"].last["load"] = 6.0
    note = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(data)).load_note

    assert_in_delta 6.0, note.peak
    assert_empty note.rows
    assert_includes note.text, "No row on this screen spread 1.5× or more"
  end

  def fixture(before:, after:)
    data = BenchReportFixture.results.data
    data["records"].each { |r| r["value"] *= 1.6 if r["row"] == "trivial: heddle process" && r["trial"] == 3 }
    data["environment"] = { "gems" => {}, "cores" => 2, "load_average_before" => [before, 1, 1],
                            "load_average_after" => [after, 1, 1] }
    data
  end

  def load_note(**loads) = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(fixture(**loads))).load_note

  def markdown(**loads) = Heddle::Bench::MarkdownReport.new(Heddle::Bench::Results.new(fixture(**loads))).render
end
