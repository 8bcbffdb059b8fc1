# frozen_string_literal: true

require "test_helper"

# A block's error names its item: e.item and e.index, a report
# that starts "item 3 (\"bad\"): " where Ruby reports errors with
# detailed_message, the block's own message unchanged, and the caller's map
# line in the backtrace on every in-process backend.
class WorkersItemErrorsTest < Minitest::Test
  include FreshRuby

  BACKENDS = %i[inline fiber thread].freeze
  ITEMS = %w[a b c bad].freeze

  def test_the_error_keeps_its_message_item_and_index
    outcomes = BACKENDS.map do |worker|
      error = assert_raises(ArgumentError) { map_with_bad_item(worker) }
      [error.message, error.index, error.item, error.item_label]
    end

    assert_equal [["bad item", 3, "bad", 'item 3 ("bad")']] * 3, outcomes
  end

  def test_the_backtrace_has_the_callers_map_line_once
    map_line = "#{__FILE__}:#{__LINE__ + 3}"
    traces = BACKENDS.map do |worker|
      error = assert_raises(ArgumentError) do
        Heddle.map(ITEMS, worker: worker, size: 2) { |x| x == "bad" ? raise(ArgumentError, "bad item") : x }
      end
      error.backtrace.count { |line| line.start_with?(map_line) }
    end

    assert_equal [2, 2, 2], traces # the block's line, and the map call's
  end

  def test_a_long_item_is_cut_and_an_inspect_that_raises_is_named
    long = "x" * 500
    fail_on = ->(x) { raise "no #{x.class}" }
    label = assert_raises(RuntimeError) { Heddle.map([long], &fail_on) }.item_label
    sulky = Object.new
    def sulky.inspect = raise(TypeError, "no inspect")
    sulky_label = assert_raises(RuntimeError) { Heddle.map([sulky], worker: :thread, &fail_on) }.item_label

    assert_equal Heddle::Workers::PartialResults::ITEM_INSPECT, label.length - "item 0 ()".length
    assert_match(/\Aitem 0 \(#<Object \(inspect raised TypeError\)>\)\z/, sulky_label)
  end

  # What a program that dies of the error prints.
  def test_an_uncaught_error_reports_the_item_and_index
    skip "Exception#detailed_message (Ruby 3.2+) is what Ruby's report reads" unless
      Exception.method_defined?(:detailed_message)

    _status, _out, errors = run_fresh_ruby(<<~RUBY, limit: 30)
      require "heddle"
      Heddle.map(#{ITEMS.inspect}, worker: :thread) { |x| x == "bad" ? raise(ArgumentError, "bad item") : x }
    RUBY

    assert_includes errors, 'item 3 ("bad"): bad item (ArgumentError)'
  end

  private

  def map_with_bad_item(worker)
    Heddle.map(ITEMS, worker: worker, size: 2) { |x| x == "bad" ? raise(ArgumentError, "bad item") : x }
  end
end
