# frozen_string_literal: true

require "test_helper"
require "loom/check"

# Every part raises its own TimeoutError under its own error class; all of
# them are a Loom::TimeoutError, so one rescue catches a timeout from any part
# (issue 17: one meaning per noun).
class TimeoutErrorTest < Minitest::Test
  def test_each_part_s_timeout_is_a_loom_timeout_and_its_part_s_error
    assert_operator Loom::Evaluation::TimeoutError, :<, Loom::Evaluation::Error
    assert_operator Loom::Workers::TimeoutError, :<, Loom::Workers::Error
    assert_operator Loom::Check::TimeoutError, :<, Loom::Check::HarnessError
    assert_operator Loom::Promise::TimeoutError, :<, Loom::Error
    [Loom::Evaluation::TimeoutError, Loom::Workers::TimeoutError, Loom::Check::TimeoutError,
     Loom::Promise::TimeoutError].each { |klass| assert_operator klass, :<, Loom::TimeoutError }
  end

  def test_one_rescue_catches_a_promise_an_evaluation_and_a_map_timing_out
    caught = [
      -> { Loom::Promise.new.value!(0.01) },
      -> { Loom.with_timeout(0.01) { Loom.wait 5 } },
      -> { Loom.map([1], worker: :thread, timeout: 0.05) { sleep 5 } }
    ].map do |timing_out|
      timing_out.call
      nil
    rescue Loom::TimeoutError => e
      e.class
    end
    assert_equal [Loom::Promise::TimeoutError, Loom::Evaluation::TimeoutError, Loom::Workers::TimeoutError], caught
  end

  def test_a_loom_timeout_is_not_raised_or_rescued_as_ruby_s_own
    refute_operator Loom::Evaluation::TimeoutError, :<, Timeout::Error
    assert_raises(TypeError) { raise Loom::TimeoutError }
  end
end
