# frozen_string_literal: true

require "test_helper"

# Every workers entry point checks its arguments at the door: a bad one
# raises ArgumentError or TypeError naming the parameter and the value,
# before anything is started or consumed (no thread, no child, no item read).
class DoorTest < Minitest::Test
  include WorkerCounts

  # [call, error class, what the message must name]
  BAD_MAPS = [
    [-> { Heddle.map(5) { |x| x } }, TypeError, /items.*5 \(Integer\)/],
    [-> { Heddle.map(nil) { |x| x } }, TypeError, /items.*nil/],
    [-> { Heddle.map("abc") { |x| x } }, TypeError, /items.*"abc"/],
    [-> { Heddle.map([1]) }, ArgumentError, /block/],
    [-> { Heddle.map([1], worker: :goroutine) { |x| x } }, ArgumentError, /worker.*:goroutine/],
    [-> { Heddle.map([1], worker: "thread") { |x| x } }, ArgumentError, /worker.*"thread"/],
    [-> { Heddle.map([1], size: 0) { |x| x } }, ArgumentError, /size.*0/],
    [-> { Heddle.map([1], size: 2.5) { |x| x } }, ArgumentError, /size.*2\.5/],
    [-> { Heddle.map([1], item_timeout: :x) { |x| x } }, TypeError, /item_timeout.*:x/],
    [-> { Heddle.map([1], item_timeout: -1) { |x| x } }, ArgumentError, /item_timeout.*-1/],
    [-> { Heddle.map([1], item_timeout: 0) { |x| x } }, ArgumentError, /item_timeout.*0/],
    [-> { Heddle.map([1], item_timeout: Float::NAN) { |x| x } }, ArgumentError, /item_timeout.*NaN/],
    [-> { Heddle.map([1], timeout: "1") { |x| x } }, TypeError, /timeout.*"1"/],
    [-> { Heddle.map([1], timeout: Float::NAN) { |x| x } }, ArgumentError, /timeout.*NaN/],
    [-> { Heddle.map([1], timeout: 0) { |x| x } }, ArgumentError, /timeout.*0/],
    [-> { Heddle.map([1], fail_fast: nil) { |x| x } }, TypeError, /fail_fast.*nil/],
    [-> { Heddle.map([1], fail_fast: "no") { |x| x } }, TypeError, /fail_fast.*"no"/],
    [-> { Heddle.map([1], timout: 1) { |x| x } }, ArgumentError, /timout/],
    [-> { Heddle.each(5) { |x| x } }, TypeError, /items.*5/],
    [-> { Heddle.each([1], worker: :nope) { |x| x } }, ArgumentError, /worker.*:nope/],
    [-> { Heddle.each_with_index(5) { |x, _i| x } }, TypeError, /items.*5/],
    [-> { Heddle.each_with_index([1]) }, ArgumentError, /block/],
    [-> { Heddle.each_with_index([1], timeout: :x) { |x, _i| x } }, TypeError, /timeout.*:x/],
    [-> { Heddle::Pool.new(worker: :thread, item_timeout: "2") { |x| x } }, TypeError, /item_timeout.*"2"/],
    [-> { Heddle::Pool.new(worker: :process, lazy: 1) { |x| x } }, TypeError, /lazy.*1/],
    [-> { Heddle::Pool.new(worker: :process, size: -2) { |x| x } }, ArgumentError, /size.*-2/]
  ].freeze

  BAD_MAPS.each_with_index do |(call, klass, message), i|
    define_method("test_bad_argument_#{i}_is_refused_before_anything_starts") do
      before, error, after = counts_around { assert_raises(klass) { call.call } }
      assert_match message, error.message
      refute after.started_since?(before), "nothing was started (#{before} -> #{after})"
    end
  end

  # Counts before and after the block, with no collection between: an
  # earlier test's garbage, finalized meanwhile, may start a thread of its
  # own (a loop registry reaping a dead thread's loop), not the call's.
  def counts_around
    GC.start # runs what earlier garbage had pending, before the first count
    GC.disable
    before = worker_counts
    result = yield
    [before, result, worker_counts]
  ensure
    GC.enable
  end

  def test_items_are_not_read_when_an_option_is_bad
    read = 0
    items = Enumerator.new { |y| 3.times { |i| (read += 1) && (y << i) } }
    assert_raises(TypeError) { Heddle.map(items, timeout: :soon) { |x| x } }
    assert_raises(ArgumentError) { Heddle.map(items, worker: :nope) { |x| x } }
    assert_raises(ArgumentError) { Heddle.map(items) }
    assert_equal 0, read
  end

  BAD_POOL_CALLS = [
    [->(pool) { pool.map(5) }, TypeError, /items.*5/],
    [->(pool) { pool.map([1], timeout: :x) }, TypeError, /timeout.*:x/],
    [->(pool) { pool.map([1], timeout: -3) }, ArgumentError, /timeout.*-3/],
    [->(pool) { pool.map([1], fail_fast: 1) }, TypeError, /fail_fast.*1/],
    [->(pool) { pool.each([1], fail_fast: 1) }, TypeError, /fail_fast.*1/],
    [->(pool) { pool.ask(1, timeout: "x") }, TypeError, /timeout.*"x"/],
    [->(pool) { pool.shutdown(kill: :yes) }, TypeError, /kill.*:yes/]
  ].freeze

  def test_pool_methods_check_their_options_and_the_pool_still_works
    pool = Heddle::Pool.new(worker: :thread, size: 2) { |x| x * 2 }
    BAD_POOL_CALLS.each do |call, klass, message|
      assert_match message, assert_raises(klass) { call.call(pool) }.message
    end
    refute_predicate pool, :shutdown?, "a refused shutdown leaves the pool running"
    assert_equal [2, 4], pool.map([1, 2], timeout: 30, fail_fast: false)
    assert_equal 6, pool.ask(3, timeout: Float::INFINITY)
  ensure
    pool&.shutdown
  end

  def test_good_edge_values_are_taken
    assert_equal [1], Heddle.map([1], worker: :inline, item_timeout: Float::INFINITY, timeout: 5r) { |x| x }
    assert_equal [[1, 2]], Heddle.map({ 1 => 2 }, worker: :inline) { |pair| pair }
    assert_equal [0, 1], Heddle.map(0..1, worker: :thread, size: 1, timeout: nil, fail_fast: false) { |x| x }
  end
end
