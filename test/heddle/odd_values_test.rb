# frozen_string_literal: true

require "test_helper"

# Values no caller means at every door: a BasicObject (it has no is_a?,
# nil?, inspect or class, so a check that calls them raised NoMethodError)
# and durations no clock or timed wait can honour (1e308 seconds raised
# RangeError from deep inside a wait). Each is refused at the call with
# TypeError or ArgumentError naming the parameter, before anything starts.
class OddValuesTest < Minitest::Test
  ODD = BasicObject.new

  def test_a_basic_object_is_refused_naming_the_parameter
    calls = basic_object_calls
    assert_equal(calls.keys, calls.filter_map { |name, call| name if refused?(call, name) })
  end

  def basic_object_calls
    {
      "worker" => -> { Heddle.map([1], worker: ODD) { |x| x } },
      "size" => -> { Heddle.map([1], worker: :thread, size: ODD) { |x| x } },
      "timeout:" => -> { Heddle.map([1], worker: :fiber, timeout: ODD) { |x| x } },
      "fail_fast:" => -> { Heddle.map([1], worker: :thread, fail_fast: ODD) { |x| x } },
      "item_timeout:" => -> { Heddle::Pool.new(worker: :thread, item_timeout: ODD) { |x| x } },
      "with_timeout: seconds" => -> { Heddle.with_timeout(ODD) { :x } },
      "wait's seconds" => -> { Heddle.wait(ODD) },
      "timeout" => -> { Heddle::Promise.new.value(ODD) },
      "limit" => -> { Heddle::Semaphore.new(ODD) },
      "io" => -> { Heddle.await_readable(ODD) }
    }
  end

  def test_durations_no_clock_honours_are_refused_naming_the_parameter
    reader, writer = IO.pipe
    calls = {
      "timeout:" => -> { Heddle.map([1], worker: :fiber, timeout: 1e308) { |x| x } },
      "item_timeout:" => -> { Heddle::Pool.new(worker: :thread, item_timeout: 1e308) { |x| x } },
      "with_timeout: seconds" => -> { Heddle.with_timeout(1e308) { :x } },
      "timeout" => -> { Heddle::Promise.new.value(1e308) },
      "within:" => -> { Heddle.await_readable(reader, within: 1e308) }
    }
    assert_equal(calls.keys, calls.filter_map { |name, call| name if refused?(call, name) })
  ensure
    [reader, writer].each { |io| io&.close }
  end

  def test_a_limit_no_process_can_reach_is_refused
    error = assert_raises(ArgumentError) { Heddle::Semaphore.new(10**30) }
    assert_includes error.message, "limit"
  end

  private

  def refused?(call, name)
    threads = Thread.list.size
    call.call
    false
  rescue TypeError, ArgumentError => e
    e.message.include?(name) && Thread.list.size == threads
  end
end
