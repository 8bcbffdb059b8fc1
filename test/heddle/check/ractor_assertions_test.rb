# frozen_string_literal: true

require "test_helper"
require "heddle/check/minitest"
require "timeout"

# Properties on worker: :ractor fail as they do on the other backends: a
# Minitest assertion is a failure with Minitest's message, a NameError or a
# NoMethodError is the property's own failure (its class and message), and
# neither is a HarnessError.
class CheckRactorAssertionsTest < Minitest::Test
  include Heddle::Check::Minitest

  C = Heddle::Check
  LIMIT = 60

  def ractor_check(prop) = Timeout.timeout(LIMIT) { C.check(prop, seed: 5, size: 2, worker: :ractor) }

  def test_a_failed_assertion_is_the_property_failure_with_minitest_message
    failure = assert_raises(Minitest::Assertion) do
      Timeout.timeout(LIMIT) do
        assert_property(C.integer(min: 0, max: 100), seed: 5, size: 2, worker: :ractor) do |n|
          assert_operator n, :<, 3
        end
      end
    end
    assert_includes failure.message, "Counterexample: 3\n"
    assert_includes failure.message, "Expected 3 to be < 3."
  end

  def test_passing_assertions_pass
    result = Timeout.timeout(LIMIT) do
      assert_property(C.integer, C.integer, runs: 40, seed: 2, size: 2, worker: :ractor) do |a, b|
        assert_equal a + b, b + a
        refute_nil a
        assert_raises(ZeroDivisionError) { 1 / 0 }
      end
    end
    assert_equal 40, result.runs
  end

  def test_an_assertion_message_and_its_default_are_both_kept
    failure = assert_raises(Minitest::Assertion) do
      Timeout.timeout(LIMIT) do
        assert_property(C.integer(min: 0, max: 100), seed: 5, size: 2, worker: :ractor) do |n|
          assert_equal 0, n, "n is small"
        end
      end
    end
    assert_includes failure.message, "n is small.\nExpected: 0\n  Actual: 1"
  end

  def test_a_no_method_error_is_the_property_failure_as_itself
    result = ractor_check(C.property(C.integer(min: 0, max: 100)) { |n| n > 2 ? n.frobnicate : n })
    refute_predicate result, :passed?
    assert_equal 3, result.counterexample
    assert_instance_of NoMethodError, result.error
    assert_match(/undefined method .frobnicate/, result.error.message)
    assert_equal :frobnicate, result.error.name
  end

  def test_a_name_error_is_the_property_failure_as_itself
    result = ractor_check(C.property(C.integer(min: 0, max: 100)) { |n| n > 2 ? no_such_name : n })
    assert_equal 3, result.counterexample
    assert_instance_of NameError, result.error
    assert_match(/undefined local variable or method .no_such_name/, result.error.message)
    assert_match(/ractor_assertions_test\.rb:\d+/, result.error.backtrace.first, "the property's line")
  end
end
