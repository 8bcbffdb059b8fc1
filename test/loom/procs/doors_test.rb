# frozen_string_literal: true

require "test_helper"
require "loom/check"

# Validate at the door (issue 14): every public core wait checks its
# arguments before it touches the loop, and a rejected call leaves the loop
# as it was. The property, written with Loom::Check itself, interleaves good
# and bad calls at random; after each one a canary must still work.
class DoorsTest < Minitest::Test
  C = Loom::Check
  NAN = Float::NAN
  PIPE = IO.pipe

  # name => [call, error class expected (nil: a good call), text the message names]
  CALLS = {
    await_readable_nil: [-> { Loom.await_readable(nil) }, TypeError, "io"],
    await_writable_int: [-> { Loom.await_writable(42) }, TypeError, "io"],
    await_readable_nan: [-> { Loom.await_readable(PIPE[0], within: NAN) }, ArgumentError, "within"],
    await_resume_nan: [-> { Loom.await_resume!(within: NAN) }, ArgumentError, "within"],
    await_resume_string: [-> { Loom.await_resume!(within: "1") }, TypeError, "within"],
    await_result_nan: [-> { Loom.concurrently { 1 }.await_result(within: NAN) }, ArgumentError, "within"],
    await_result_symbol: [-> { Loom.concurrently { 1 }.await_result(within: :soon) }, TypeError, "within"],
    await_fastest_none: [-> { Loom.await_fastest }, ArgumentError, "await_fastest"],
    await_fastest_int: [-> { Loom.await_fastest(42) }, TypeError, "42"],
    promise_nan: [-> { Loom::Promise.new.wait(NAN) }, ArgumentError, "timeout"],
    promise_string: [-> { Loom::Promise.new.value("1") }, TypeError, "timeout"],
    map_of_int: [-> { Loom.map(5) { |x| x } }, TypeError, "items"],
    wait_string: [-> { Loom.wait("1") }, TypeError, "seconds"],
    readable_timeout: [-> { Loom.await_readable(PIPE[0], within: 0.001) }, nil, nil],
    resume_timeout: [-> { Loom.await_resume!(within: 0.001, timeout_result: :late) }, nil, nil],
    result_forever: [lambda {
      Loom.concurrently do
        Loom.wait(0.001) && 2
      end.await_result(within: Float::INFINITY)
    }, nil, nil],
    fastest: [-> { Loom.await_fastest(Loom.concurrently { 3 }, Loom.concurrently { Loom.wait(1) }) }, nil,
              nil],
    promise_forever: [-> { Loom::Promise.fulfilled(4).value(Float::INFINITY) }, nil, nil]
  }.freeze

  CALLS.each do |name, (call, error, names)|
    next unless error

    define_method("test_#{name}_is_refused_naming_it_and_the_loop_goes_on") do
      raised = assert_raises(error) { call.call }
      assert_includes raised.message, names
      assert_canary_sings
    end
  end

  def test_random_good_and_bad_calls_never_break_the_loop
    prop = C.property(C.array(C.one_of(*CALLS.keys), max: 12)) do |names|
      names.all? do |name|
        call, error, = CALLS.fetch(name)
        outcome = begin
          call.call
          nil
        rescue ArgumentError, TypeError => e
          e.class
        end
        outcome == error && canary_sings?
      end
    end
    result = C.check(prop, runs: 40, seed: 14)
    assert result.passed?, -> { result.report }
  end

  private

  def assert_canary_sings
    assert canary_sings?, "the loop no longer works"
  end

  def canary_sings?
    Loom.wait(0) == true && Loom.wait(0.001) == true &&
      Loom.run { Loom.concurrently { Loom.wait(0.001) && :ok }.await_result } == :ok &&
      Loom.map([1, 2], worker: :fiber, size: 2) { |x| Loom.wait(0.001) && (x * 2) } == [2, 4]
  end
end
