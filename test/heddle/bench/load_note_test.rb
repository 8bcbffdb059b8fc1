# frozen_string_literal: true

require "test_helper"
require_relative "report_fixture"

# The first screen warns when other programs took a meaningful share of the
# machine's CPU while the run measured, and names the rows of that screen it
# may have moved. The run's own load (its threads and processes), and the
# load average, which counts them, raise no warning.
class BenchLoadNoteTest < Minitest::Test
  def test_the_run_s_own_load_raises_no_note_however_high_the_load_average
    note = load_note(own: 0.97, other: 0.02, load: 80.0)

    refute_predicate note, :exceeded?
    assert_nil note.text
    refute_includes markdown(own: 0.97, other: 0.02, load: 80.0), "Other programs"
  end

  def test_other_work_over_the_run_is_said_with_its_share_and_the_widely_spread_rows_it_ran_under
    note = load_note(own: 0.6, other: 0.3, busy: "trivial: heddle process")

    assert_predicate note, :exceeded?
    assert_equal ["trivial: heddle process"], note.rows.map(&:name)
    assert_match(/\AOther programs on this machine took 30% of its 2 cores' time while the run measured \(the run /,
                 note.text)
    assert_includes note.text, "the 1 row of this screen whose slowest trial took 1.5× the fastest or more, " \
                               "widest: trivial: heddle process (1.8×)"
    text = markdown(own: 0.6, other: 0.3)

    assert_operator text.index("**Other programs"), :<, text.index("## Answers")
  end

  def test_a_burst_of_other_work_under_a_widely_spread_row_is_said_though_the_run_s_share_is_small
    note = load_note(own: 0.9, other: 0.03, busy: "trivial: heddle process")

    assert_predicate note, :exceeded?
    assert_equal ["trivial: heddle process"], note.rows.map(&:name)
  end

  def test_other_work_under_rows_that_did_not_spread_names_none
    note = load_note(own: 0.5, other: 0.4, busy: "trivial: Parallel processes")

    assert_empty note.rows
    assert_includes note.text, "No row on this screen spread 1.5× or more between its trials while it ran"
  end

  def test_a_run_without_cpu_samples_has_no_note_whatever_its_load
    data = fixture(own: nil, other: nil, load: 9.0)

    assert_nil Heddle::Bench::Findings.new(Heddle::Bench::Results.new(data)).load_note.text
  end

  private

  # busy: the row whose third trial ran while other work took 40% of the machine (the others: 1%).
  def fixture(own:, other:, load: 1.0, busy: nil)
    data = BenchReportFixture.results.data
    data["records"].each do |r|
      r["value"] *= 1.6 if r["row"] == "trivial: heddle process" && r["trial"] == 3
      r["load"] = load
      r["cpu"] = { "own" => 0.9, "other" => busy?(r, busy) ? 0.4 : 0.01 } if own
    end
    data["environment"] = { "gems" => {}, "cores" => 2, "load_average_before" => [load, 1, 1],
                            "load_average_after" => [load, 1, 1] }
    data["environment"]["cpu_share"] = { "own" => own, "other" => other } if own
    data
  end

  def busy?(record, row) = record["row"] == row && record["trial"] == 3

  def load_note(**shares) = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(fixture(**shares))).load_note

  def markdown(**shares) = Heddle::Bench::MarkdownReport.new(Heddle::Bench::Results.new(fixture(**shares))).render
end
