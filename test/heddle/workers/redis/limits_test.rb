# frozen_string_literal: true

require "test_helper"

# What one payload read from Redis may cost: bytes, digits of a number (its
# parse grows faster than its length), nesting. A payload over a limit does
# not decode, before the parser runs.
class RedisLimitsTest < Minitest::Test
  Limits = Heddle::Workers::Redis::Limits
  Codec = Heddle::Workers::Redis::Codec

  def test_a_long_number_is_over_and_the_same_digits_in_a_string_are_text
    limits = Limits.new(digits: 5)
    assert_match(/more than 5 digits/, limits.exceeded("[123456]", json: true))
    assert_match(/more than 5 digits/, limits.exceeded('["a\"", 123456]', json: true), "after an escaped quote")
    assert_nil limits.exceeded('["123456", 12345, "a\"123456"]', json: true)
    assert_nil limits.exceeded("[123456]", json: false), "Marshal writes no digits"
  end

  def test_bytes_count_whatever_the_format
    limits = Limits.new(bytes: 10)
    assert_nil limits.exceeded("[1,2,3,4]", json: true)
    assert_match(/11 bytes, over the limit of 10/, limits.exceeded("[1,2,3,4,5]", json: false))
  end

  def test_a_codec_refuses_a_million_digit_number_without_parsing_it
    error = assert_raises(Codec::DecodeError) { Codec.new.load_batch("[[0,0,#{'9' * 1_000_000}]]") }
    assert_match(/a number of more than 4300 digits/, error.message)
    assert_equal 4300, Codec.new.load_batch("[[0,0,#{'9' * 4300}]]").dig(0, 2).digits.size, "at the limit"
  end

  def test_nesting_beyond_the_depth_does_not_decode
    codec = Codec.new(limits: { depth: 3 })
    assert_equal [[[1]]], codec.load("[[[1]]]")
    assert_raises(Codec::DecodeError) { codec.load("[[[[[1]]]]]") }
  end

  def test_bad_limits_fail_naming_the_key_and_value
    error = assert_raises(ArgumentError) { Codec.new(limits: { digits: 0 }) }
    assert_equal "limits: digits must be an Integer from 1 to 1000000, got 0", error.message
    error = assert_raises(ArgumentError) { Codec.new(limits: { size: 5 }) }
    assert_match(/limits: unknown key\(s\) \[:size\]/, error.message)
    assert_raises(ArgumentError) { Codec.new(limits: { bytes: 600 * 1024 * 1024 }) }
    assert_raises(TypeError) { Codec.new(limits: [1]) }
  end
end
