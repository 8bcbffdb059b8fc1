# frozen_string_literal: true

require "test_helper"

# HEDDLE_DEBUG: a concurrent proc that blocks its thread outside
# Heddle.run is reported once; under Heddle.run, or without HEDDLE_DEBUG,
# nothing is. Each case runs in a fresh ruby (the check prepends to the procs
# for the whole process).
class DiagnosticsBlockingCheckTest < Minitest::Test
  include FreshRuby

  # Three procs that each sleep (a plain blocking call), awaited.
  PROGRAM = <<~RUBY
    require "heddle"
    slow = Heddle.concurrent_proc { |x| sleep 0.1; x }
    %s
  RUBY
  OUTSIDE = "p 3.times.map { |i| slow.call_detached(i) }.map(&:await_result)"
  INSIDE = "Heddle.run { p 3.times.map { |i| slow.call_detached(i) }.map(&:await_result) }"
  WAITING = "quick = Heddle.concurrent_proc { |x| Heddle.wait(0.1) && x }\n" \
            "p 3.times.map { |i| quick.call_detached(i) }.map(&:await_result)"

  def test_a_blocking_proc_outside_heddle_run_is_reported_once
    out, err = run_program(OUTSIDE, debug: "1")

    assert_equal ["[0, 1, 2]\n", 1], [out, err.scan("HEDDLE_DEBUG").size]
    assert_match(/concurrent proc at -e:\d+ held its thread .* Wrap the code in Heddle.run/, err)
  end

  def test_under_heddle_run_nothing_is_reported
    assert_equal ["[0, 1, 2]\n", ""], run_program(INSIDE, debug: "1")
  end

  def test_procs_that_wait_with_heddle_are_not_reported
    assert_equal ["[0, 1, 2]\n", ""], run_program(WAITING, debug: "1")
  end

  def test_without_heddle_debug_nothing_is_reported
    assert_equal [["[0, 1, 2]\n", ""]] * 2, [run_program(OUTSIDE, debug: nil), run_program(OUTSIDE, debug: "0")]
  end

  private

  def run_program(code, debug:)
    prelude = debug ? "ENV['HEDDLE_DEBUG'] = #{debug.inspect}\n" : "ENV.delete('HEDDLE_DEBUG')\n"
    status, out, err = run_fresh_ruby(prelude + format(PROGRAM, code), limit: 30)

    assert_predicate status, :success?, err
    [out, err]
  end
end
