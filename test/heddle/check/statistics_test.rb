# frozen_string_literal: true

require "test_helper"
require "heddle/check"
require "open3"
require "rbconfig"
require "stringio"
require "tmpdir"

# label: counts, health warnings, and the end-of-run report of the test helpers.
class CheckStatisticsTest < Minitest::Test
  C = Heddle::Check
  ROOT = File.expand_path("../../..", __dir__)

  def test_labels_are_counted_once_per_case
    negatives = 0
    prop = C.property(C.integer(min: -10, max: 10)) { |x| negatives += 1 if x.negative? }
    stats = C.check(prop, seed: 3, label: ->(x) { x.negative? ? :negative : :other }).statistics
    assert_equal 100, stats.cases
    assert_equal({ negative: negatives, other: 100 - negatives }, stats.labels)
    assert_match(/negative \d+%, other \d+%|other \d+%, negative \d+%/, stats.summary)
  end

  def test_labels_may_be_several_or_none_and_follow_the_block_shape
    both = 0
    prop = C.property(a: C.integer(min: 0, max: 9), b: C.integer(min: 0, max: 9)) do |a:, b:|
      both += 1 if a.even? && b.even?
    end
    labels = ->(a:, b:) { [(:both_even if a.even? && b.even?), (:a_big if a > 5)] }
    stats = C.check(prop, seed: 1, label: labels).statistics
    refute stats.labels.key?(nil), "nil is no label"
    assert_equal both, stats.labels[:both_even]
    assert_operator stats.labels[:a_big], :positive?
  end

  def test_labels_are_the_same_on_every_backend
    prop = C.property(C.array(C.boolean)) { |a| a.size >= 0 }
    label = ->(a) { a.empty? ? :empty : :some }
    inline = C.check(prop, seed: 7, label: label).statistics.labels
    assert_equal inline, C.check(prop, seed: 7, label: label, worker: :thread, size: 2).statistics.labels
  end

  def test_a_filter_refusing_most_draws_is_warned_about
    stats = C.check(C.property(C.integer.filter { |x| (x % 5).zero? }) { true }, seed: 1).statistics
    assert_operator stats.refusals, :>, stats.attempts / 2
    assert_match(/of filtered draws were refused/, stats.warnings.join)
  end

  def test_nearly_all_cases_alike_are_warned_about
    alike = C.check(C.property(C.integer(min: 0, max: 1000).map { 1 }.filter { true }, C.constant(2)) { true },
                    seed: 1).statistics
    assert_empty alike.warnings, "map keeps its source's choices: distinct choices are not alike"
    same = C.check(C.property(C.constant(1)) { true }, seed: 1).statistics
    assert_match(/all cases were the same value/, same.warnings.join)
    labelled = C.check(C.property(C.integer) { true }, seed: 1, label: ->(_) { :all }).statistics
    assert_match(/100% of cases had the label :all/, labelled.warnings.join)
  end

  # Cases of the same choices among others, spread evenly.
  def alike_share(same, others)
    stats = Heddle::Check::Statistics.new
    (same + others).times { |i| stats.record(i < 2 * others && i.odd? ? [i] : [7], nil) }
    stats
  end

  def test_ninety_percent_alike_is_warned_and_three_quarters_is_not
    assert_match(/at least \d+% of cases were the same value/, alike_share(92, 8).warnings.join)
    assert_empty alike_share(75, 25).warnings
    assert_empty alike_share(9, 0).warnings, "too few cases to judge"
  end

  def test_a_varied_check_has_nothing_to_report
    stats = C.check(C.property(C.array(C.integer)) { true }, seed: 1).statistics
    assert_empty stats.warnings
    refute_predicate stats, :noteworthy?
  end

  def test_bad_label_and_target_values_are_refused
    error = assert_raises(ArgumentError) { C.check(C.property(C.integer) { true }, label: :size) }
    assert_includes error.message, "label: must be"
    assert_includes error.message, "got :size"
    error = assert_raises(TypeError) { C.check(C.property(C.integer) { true }, target: lambda(&:to_s)) }
    assert_includes error.message, "target: must return a real Numeric"
  end

  def test_the_report_prints_noteworthy_checks_once
    io = StringIO.new
    Heddle::Check::StatisticsReport.add("Quiet#test", C.check(C.property(C.array(C.integer)) { true }, seed: 1))
    Heddle::Check::StatisticsReport.add("Loud#test", C.check(C.property(C.constant(1)) { true }, seed: 1))
    Heddle::Check::StatisticsReport.flush(io)
    Heddle::Check::StatisticsReport.flush(io)
    assert_equal 1, io.string.scan("heddle-check statistics:").size
    assert_match(/^  Loud#test: 100 runs; warning: all cases were the same value$/, io.string)
    refute_includes io.string, "Quiet#test"
  end

  def run_file(source, *command)
    Dir.mktmpdir do |dir|
      file = File.join(dir, "labels_test.rb")
      File.write(file, source)
      Open3.capture2e(RbConfig.ruby, *LibRoots::FLAGS, *command, file, chdir: ROOT)
    end
  end

  def test_minitest_prints_the_labels_after_the_run
    output, status = run_file(<<~RUBY)
      require "minitest/autorun"
      require "heddle/check/minitest"
      class LabelsTest < Minitest::Test
        include Heddle::Check::Minitest
        def test_sizes
          assert_property(Heddle::Check.array(Heddle::Check.integer), seed: 1,
                          label: ->(a) { a.empty? ? :empty : :some }) { |a| a.size >= 0 }
        end
      end
    RUBY
    assert_predicate status, :success?, output
    assert_match(/1 runs, 1 assertions.*heddle-check statistics:\n  LabelsTest#test_sizes: 100 runs; (some|empty) /m,
                 output)
  end

  def test_rspec_prints_the_labels_after_the_suite
    output, status = run_file(<<~RUBY, "-S", "rspec", "--no-color")
      require "heddle/check/rspec"
      RSpec.describe "sizes" do
        it "counts" do
          check_property(Heddle::Check.array(Heddle::Check.integer), seed: 1,
                         label: ->(a) { a.empty? ? :empty : :some }) { |a| expect(a.size).to be >= 0 }
        end
      end
    RUBY
    assert_predicate status, :success?, output
    assert_match(/heddle-check statistics:\n  sizes counts: 100 runs; (some|empty) \d+%/, output)
  end
end
