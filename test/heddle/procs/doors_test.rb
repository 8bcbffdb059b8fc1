# frozen_string_literal: true

require "test_helper"
require "heddle/check"
require "heddle/soak"

# Validate at the door: every public core wait checks its
# arguments before it touches the loop, and a rejected call leaves the loop
# as it was. The property, written with Heddle::Check itself, interleaves good
# and bad calls at random; after each one a canary must still work.
class DoorsTest < Minitest::Test
  CALLS = Heddle::Soak::DoorCalls::CALLS

  CALLS.each do |name, (call, error, names)|
    next unless error

    define_method("test_#{name}_is_refused_naming_it_and_the_loop_goes_on") do
      raised = assert_raises(error) { call.call }
      assert_includes raised.message, names
      assert_canary_sings
    end
  end

  def test_random_good_and_bad_calls_never_break_the_loop
    result = Heddle::Check.check(Heddle::Soak::DoorCalls.property, runs: 40, seed: 14)
    assert result.passed?, -> { result.report }
  end

  private

  def assert_canary_sings
    assert Heddle::Soak::DoorCalls.canary_sings?, "the loop no longer works"
  end
end
