# frozen_string_literal: true

require "test_helper"

# Heddle::Seconds: the one duration check, the rule a parameter.
class SecondsTest < Minitest::Test
  def test_each_rule_takes_what_it_says_and_refuses_the_rest
    allowed = { any: [-1, 0, 0.5, 3], non_negative: [0, 0.5, 3], positive: [0.5, 3] }
    longest = Heddle::Seconds::LONGEST
    refused = { any: [Float::NAN, longest + 1, 1e308], non_negative: [-1, -0.001, Float::NAN, 1e308],
                positive: [0, -1, Float::NAN, 1e308] }
    allowed.each do |rule, values|
      values.each { |value| assert_equal value, Heddle::Seconds.check!(value, "t", rule), "#{rule} #{value}" }
    end
    refused.each do |rule, values|
      values.each do |value|
        error = assert_raises(ArgumentError) { Heddle::Seconds.check!(value, "timeout:", rule) }
        assert_includes error.message, "timeout: must be #{Heddle::Seconds::RULES.fetch(rule)}, at most #{longest}, " \
                                       "got #{value.inspect}"
      end
    end
  end

  def test_a_basic_object_is_a_type_error_too
    error = assert_raises(TypeError) { Heddle::Seconds.check!(BasicObject.new, "within:") }
    assert_includes error.message, "(BasicObject)"
  end

  def test_the_longest_duration_is_allowed
    assert_equal Heddle::Seconds::LONGEST, Heddle::Seconds.check!(Heddle::Seconds::LONGEST, "t", :positive)
  end

  def test_infinity_is_no_limit_under_every_rule
    Heddle::Seconds::RULES.each_key { |rule| assert_nil Heddle::Seconds.check!(Float::INFINITY, "t", rule) }
  end

  def test_a_value_of_the_wrong_kind_is_a_type_error_naming_parameter_and_value
    [nil, "1", :one, Complex(1, 1), Object.new].each do |value|
      error = assert_raises(TypeError) { Heddle::Seconds.check!(value, "within:", :any, no_limit: "nil") }
      assert_match(/\Awithin: must be a real number of seconds \(Numeric\), at most 3153600000 \(nil: no limit\), got /,
                   error.message)
      assert_includes error.message, "(#{value.class})"
    end
  end

  def test_a_long_value_is_cut_in_the_message
    error = assert_raises(TypeError) { Heddle::Seconds.check!("x" * 10_000, "t") }
    assert_operator error.message.length, :<, 160
  end

  # The sites share the check and keep their rules.
  def test_the_sites_keep_their_rules
    assert_equal(-1, Heddle::Waits.within!(-1))
    assert_raises(ArgumentError) { Heddle::Workers::Options.seconds!(:timeout, 0) }
    assert_nil Heddle::Workers::Options.seconds!(:timeout, nil)
    assert_raises(ArgumentError) { Heddle::Scheduler::Deadline.seconds!(-1) }
    assert_equal 0.0, Heddle::Promise.check_timeout(0)
    assert_raises(TypeError) { Heddle::Promise.new.value!("soon") }
  end
end
