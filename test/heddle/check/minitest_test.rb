# frozen_string_literal: true

require "test_helper"
require "heddle/check/minitest"

class CheckMinitestTest < Minitest::Test
  include Heddle::Check::Minitest

  C = Heddle::Check

  def test_assert_property_with_arbitraries_and_a_block
    result = assert_property(C.integer, C.integer, runs: 30, seed: 2) { |a, b| assert_equal a + b, b + a }
    assert_equal 30, result.runs
  end

  def test_assert_property_with_keyword_arbitraries_and_options
    assert_property(x: C.nat, runs: 10) { |x:| x >= 0 }
  end

  def test_assert_property_with_a_property
    before = assertions
    assert_property(C.property(C.boolean) { |b| [true, false].include?(b) }, runs: 5)
    assert_operator assertions, :>, before
  end

  def test_failure_is_a_minitest_assertion_that_says_how_to_replay
    failure = assert_raises(Minitest::Assertion) do
      assert_property(C.array(C.integer), seed: 31) { |a| a.sum <= 100 }
    end
    assert_includes failure.message, "Counterexample: [101]"
    assert_includes failure.message, "Replay: pass seed: 31 to assert_property(..., seed:)"
  end

  def test_a_failure_points_at_the_test_and_its_report_at_the_property
    failure = assert_raises(Minitest::Assertion) do
      assert_property(C.nat, seed: 5) { |n| assert_operator n, :<, 3 }
    end
    assert_match(/\A#{Regexp.escape(__FILE__)}:\d+/, failure.backtrace.first)
    report_frames = failure.message.lines.grep(/^\s+\S+:\d+:in /)
    refute_empty report_frames
    assert_match(/minitest_test\.rb/, report_frames.first, "the property's line, not Minitest's assertion")
    refute(report_frames.any? { |l| Heddle::Check::Backtrace::LIBRARIES.any? { |dir| l.include?(dir) } })
  end
end
