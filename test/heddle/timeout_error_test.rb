# frozen_string_literal: true

require "test_helper"
require "heddle/check"

# Every part raises its own TimeoutError under its own error class; all of
# them are a Heddle::TimeoutError, so one rescue catches a timeout from any part
# (one meaning per noun).
class TimeoutErrorTest < Minitest::Test
  def test_each_part_s_timeout_is_a_heddle_timeout_and_its_part_s_error
    assert_operator Heddle::Evaluation::TimeoutError, :<, Heddle::Evaluation::Error
    assert_operator Heddle::Workers::TimeoutError, :<, Heddle::Workers::Error
    assert_operator Heddle::Check::TimeoutError, :<, Heddle::Check::HarnessError
    assert_operator Heddle::Promise::TimeoutError, :<, Heddle::Error
    [Heddle::Evaluation::TimeoutError, Heddle::Workers::TimeoutError, Heddle::Check::TimeoutError,
     Heddle::Promise::TimeoutError].each { |klass| assert_operator klass, :<, Heddle::TimeoutError }
  end

  def test_one_rescue_catches_a_promise_an_evaluation_and_a_map_timing_out
    caught = [
      -> { Heddle::Promise.new.value!(0.01) },
      -> { Heddle.with_timeout(0.01) { Heddle.wait 5 } },
      -> { Heddle.map([1], worker: :thread, timeout: 0.05) { sleep 5 } }
    ].map do |timing_out|
      timing_out.call
      nil
    rescue Heddle::TimeoutError => e
      e.class
    end
    assert_equal [Heddle::Promise::TimeoutError, Heddle::Evaluation::TimeoutError, Heddle::Workers::TimeoutError],
                 caught
  end

  def test_a_heddle_timeout_is_not_raised_or_rescued_as_ruby_s_own
    refute_operator Heddle::Evaluation::TimeoutError, :<, Timeout::Error
    assert_raises(TypeError) { raise Heddle::TimeoutError }
  end
end
