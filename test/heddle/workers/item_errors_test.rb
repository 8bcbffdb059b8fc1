# frozen_string_literal: true

require "test_helper"

# A block's error names its item: e.item and e.index, a report that starts
# "item \"bad\" (index 3): " where Ruby reports errors with detailed_message,
# the block's own message unchanged, and a backtrace of the block's frames and
# the caller's (its map line), without heddle's own, on every backend;
# HEDDLE_DEBUG keeps every frame.
class WorkersItemErrorsTest < Minitest::Test
  include FreshRuby

  BACKENDS = %i[inline fiber thread].freeze
  # Every backend of this process's machine (ractors' errors cross by copy,
  # processes' by Marshal: each has a trace of its own to trim).
  LOCAL_BACKENDS = %i[inline fiber thread process ractor].freeze
  ITEMS = %w[a b c bad].freeze
  # A frame of heddle's own code (Workers::ItemBacktrace::OWN).
  HEDDLE_FRAME = %r{/lib/heddle(-check|-bench|-redis)?/heddle[/.]}

  def setup
    @experimental = Warning[:experimental]
    Warning[:experimental] = false # the ractor rows
  end

  def teardown
    Warning[:experimental] = @experimental
  end

  def test_the_error_keeps_its_message_item_and_index
    outcomes = BACKENDS.map do |worker|
      error = assert_raises(ArgumentError) { map_with_bad_item(worker) }
      [error.message, error.index, error.item, error.item_label]
    end

    assert_equal [["bad item", 3, "bad", 'item "bad" (index 3)']] * 3, outcomes
  end

  def test_the_backtrace_has_the_block_and_the_callers_map_line_and_no_heddle_frame
    map_line = "#{__FILE__}:#{__LINE__ + 3}"
    traces = LOCAL_BACKENDS.map do |worker|
      error = assert_raises(ArgumentError) do
        Heddle.map(ITEMS, worker: worker, size: 2) { |x| x == "bad" ? raise(ArgumentError, "bad item") : x }
      end
      [error.backtrace.count { |line| line.start_with?(map_line) }, error.backtrace.grep(HEDDLE_FRAME)]
    end

    assert_equal [[2, []]] * LOCAL_BACKENDS.size, traces # the block's line, and the map call's
  end

  def test_heddles_own_errors_start_at_the_callers_line
    map_line = "#{__FILE__}:#{__LINE__ + 1}"
    error = assert_raises(Heddle::Workers::WorkerDiedError) { Heddle.map([1, 2], worker: :process) { |x| x.positive? && exit!(3) } }

    assert_equal [map_line, []], [error.backtrace.first[/\A[^:]+:\d+/], error.backtrace.grep(HEDDLE_FRAME)]
  end

  def test_a_long_item_is_cut_and_an_inspect_that_raises_is_named
    long = "x" * 500
    fail_on = ->(x) { raise "no #{x.class}" }
    label = assert_raises(RuntimeError) { Heddle.map([long], &fail_on) }.item_label
    sulky = Object.new
    def sulky.inspect = raise(TypeError, "no inspect")
    sulky_label = assert_raises(RuntimeError) { Heddle.map([sulky], worker: :thread, &fail_on) }.item_label

    assert_equal Heddle::Workers::PartialResults::ITEM_INSPECT, label.length - "item  (index 0)".length
    assert_match(/\Aitem #<Object \(inspect raised TypeError\)> \(index 0\)\z/, sulky_label)
  end

  # What a program that dies of the error prints: two lines (Ruby 3.4 adds
  # the highlighted source line where it can read it), as short as the
  # parallel gem's report; HEDDLE_DEBUG prints every frame.
  def test_an_uncaught_error_of_a_process_map_names_the_item_and_only_the_users_frames
    program = <<~RUBY
      require "heddle"
      Heddle.map(1..40, worker: :process, size: 2) { |n| n == 37 ? raise(ArgumentError, "bad item \#{n}") : n }
    RUBY
    short = run_fresh_ruby(program, limit: 30, env: { "HEDDLE_DEBUG" => nil })[2]
    full = run_fresh_ruby(program, limit: 30, env: { "HEDDLE_DEBUG" => "1" })[2]

    assert_equal [2, []], [short.lines.size, short.lines.grep(HEDDLE_FRAME)]
    assert_operator full.lines.grep(%r{/workers/processes/child\.rb:}).size, :>=, 1
    return unless Exception.method_defined?(:detailed_message) # Ruby 3.2+ reads the label

    assert_includes short.lines.first, "item 37 (index 36): bad item 37 (ArgumentError)"
  end

  private

  def map_with_bad_item(worker)
    Heddle.map(ITEMS, worker: worker, size: 2) { |x| x == "bad" ? raise(ArgumentError, "bad item") : x }
  end
end
