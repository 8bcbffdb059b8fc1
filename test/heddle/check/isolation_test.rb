# frozen_string_literal: true

require "test_helper"
require "heddle/check"

class CheckIsolationTest < Minitest::Test
  Isolation = Heddle::Check::Isolation

  def test_a_block_with_an_unshareable_self_becomes_shareable_with_the_same_behaviour
    block = proc { |x| x * 3 }
    shareable = Isolation.shareable(block)
    assert Ractor.shareable?(shareable)
    assert_equal 21, shareable.call(7)
  end

  def test_two_blocks_on_one_line_stay_distinct
    pairs = [proc { |x| x + 1 }, proc { |x| x * 2 }]
    assert_equal([4, 6], pairs.map { |b| Isolation.shareable(b).call(3) })
    assert_equal([4, 6], pairs.map { |b| Isolation.shareable(b.dup).call(3) })
  end

  def test_reading_outer_variables_or_self_is_reported_by_name
    limit = 3
    error = assert_raises(Heddle::Check::NotIsolatableError) { Isolation.shareable(proc { |x| x < limit }) }
    assert_includes error.message, "limit"
    error = assert_raises(Heddle::Check::NotIsolatableError) { Isolation.shareable(proc { |x| x < @limit }) }
    assert_includes error.message, "@limit"
  end

  def test_a_lambda_stays_a_lambda_and_a_do_block_keeps_its_lines
    strict = Isolation.shareable(->(x) { x + 1 })
    assert strict.lambda?
    assert_raises(ArgumentError) { strict.call(1, 2) }
    multi = Isolation.shareable(proc do |x|
      raise ArgumentError, "line" if x.negative?

      x * 2
    end)
    assert_equal 4, multi.call(2)
    error = assert_raises(ArgumentError) { multi.call(-1) }
    assert_match(/isolation_test\.rb:#{__LINE__ - 6}:/, error.backtrace.first) # the raise line
  end

  def test_a_block_with_no_source_file_names_the_process_worker
    block = eval("proc { |x| x }", binding, "(no file)", 1) # rubocop:disable Style/EvalWithLocation
    error = assert_raises(Heddle::Check::NotIsolatableError) { Isolation.shareable(block) }
    assert_match(/its source is unavailable \(.*no source file.*\); define it in a file, or use worker: :process/,
                 error.message)
  end
end
