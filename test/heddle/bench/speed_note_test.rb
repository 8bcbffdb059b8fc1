# frozen_string_literal: true

require "test_helper"
require_relative "report_fixture"

# The first screen warns when the run's trial processes ran at different
# speeds (the same code slower in some processes than in others), and names
# the comparisons whose two rows ran in the processes most apart.
class BenchSpeedNoteTest < Minitest::Test
  def test_processes_at_one_speed_raise_no_note
    note = speed_note("heddle call" => 126.0, "Concurrently call" => 131.0, "trivial: heddle process" => 129.0)

    refute_predicate note, :split?
    assert_nil note.text
    refute_includes markdown("heddle call" => 126.0, "Concurrently call" => 131.0), "different speeds"
  end

  def test_two_speeds_are_said_with_the_comparisons_whose_rows_ran_most_apart
    speeds = { "heddle call" => 190.0, "Concurrently call" => 126.0, "trivial: heddle process" => 128.0 }
    note = speed_note(speeds)

    assert_predicate note, :split?
    assert_equal([["heddle call", "Concurrently call"]], note.pairs.map { |row, other, _| [row.name, other.name] })
    assert_equal "Trial processes ran at different speeds: a fiber switch took 126–190 ns from one process to " \
                 "another (1.5×), the same code. Compared rows whose processes differed most may read that much " \
                 "off: heddle call vs Concurrently call (1.5×); rerun them before trusting their ratios.", note.text
    text = markdown(speeds)

    assert_operator text.index("**Trial processes ran at different speeds"), :<, text.index("## Answers")
  end

  def test_two_speeds_under_no_compared_pair_name_none
    note = speed_note("heddle call" => 130.0, "Concurrently call" => 131.0, "trivial: plain map" => 200.0)

    assert_predicate note, :split?
    assert_empty note.pairs
    assert_includes note.text, "No comparison on this screen had its two rows in processes that far apart."
  end

  def test_a_run_recorded_before_the_speed_was_has_no_note
    assert_nil speed_note({}).text
  end

  def test_the_terminal_and_html_reports_carry_it
    speeds = { "heddle call" => 190.0, "Concurrently call" => 126.0 }
    results = Heddle::Bench::Results.new(fixture(speeds))

    assert_includes Heddle::Bench::TerminalReport.new(results).render, "Trial processes ran at different speeds"
    assert_includes Heddle::Bench::HtmlReport.new(results).render, %(<p class="load" id="speed">Trial processes)
  end

  def test_a_process_measures_its_speed_once_and_a_fork_measures_its_own
    first = Heddle::Bench::ProcessSpeed.ns

    assert_kind_of Float, first
    assert_operator first, :>, 0
    assert_same first, Heddle::Bench::ProcessSpeed.ns
    reader, writer = IO.pipe
    pid = fork do
      reader.close
      writer.write(Marshal.dump([Heddle::Bench::ProcessSpeed.ns.equal?(first), Heddle::Bench::ProcessSpeed.ns]))
      exit!(0)
    end
    writer.close
    same_object, child = Marshal.load(reader.read) # rubocop:disable Security/MarshalLoad -- our own child's answer
    Process.wait(pid)

    refute same_object, "the fork reused its parent's figure"
    assert_operator child, :>, 0
  end

  private

  # speeds: row name => ns recorded by each of its trials (rows not named record none).
  def fixture(speeds)
    data = BenchReportFixture.results.data
    data["records"].each do |r|
      r["process_speed_ns"] = speeds[r["row"]] if speeds.key?(r["row"])
    end
    data
  end

  def speed_note(speeds) = Heddle::Bench::Findings.new(Heddle::Bench::Results.new(fixture(speeds))).speed_note

  def markdown(speeds) = Heddle::Bench::MarkdownReport.new(Heddle::Bench::Results.new(fixture(speeds))).render
end
