# frozen_string_literal: true

require "test_helper"
require "minitest/mock"

# Each argument of a map is checked once per call, whichever door it comes
# in by: Heddle.map checks them and hands the checked options
# (Workers::PoolOptions, Workers::MapOptions) to the pool it makes, which
# does not check them again. A spy counts the calls to every check.
class PoolOptionsTest < Minitest::Test
  Options = Heddle::Workers::Options
  CHECKS = %i[worker! size! seconds! boolean! items! block!].freeze
  # The checks that name their keyword are counted per keyword.
  NAMED = %i[seconds! boolean!].freeze

  MAP_CHECKS = %w[worker! size! seconds!item_timeout boolean!lazy block!
                  items! seconds!timeout boolean!fail_fast].freeze

  def test_heddle_map_checks_each_argument_once
    calls = count_checks do
      assert_equal [2, 4], Heddle.map([1, 2], worker: :inline, item_timeout: 5, timeout: 5, fail_fast: false) { _1 * 2 }
    end
    assert_once calls
  end

  def test_heddle_each_checks_each_argument_once
    calls = count_checks { Heddle.each([1, 2], worker: :thread, size: 1, timeout: 5) { _1 } }
    assert_once calls
  end

  def test_heddle_each_with_index_checks_each_argument_once
    calls = count_checks { Heddle.each_with_index([1, 2], worker: :inline, item_timeout: 5) { |x, _i| x } }
    assert_once calls
  end

  def test_a_pool_checks_its_arguments_once_and_each_map_its_own_once
    pool = nil
    calls = count_checks do
      pool = Heddle::Pool.new(worker: :inline, item_timeout: 5) { _1 }
      pool.map([1], timeout: 5)
    end
    assert_once calls
  ensure
    pool&.shutdown
  end

  def test_checked_options_are_not_checked_again
    options = Heddle::Workers::PoolOptions.check!(:inline, nil, nil, block_checked: true)
    run = Heddle::Workers::MapOptions.check!(nil, true)
    calls = count_checks { assert_equal [3], Heddle::Workers.map_checked([1], options, run) { _1 + 2 } }
    assert_equal({ "boolean!kill" => 1 }, calls, "only the pool's shutdown(kill: true) checks its own argument")
  end

  def test_checked_options_cannot_be_made_unchecked
    assert_raises(NoMethodError) { Heddle::Workers::PoolOptions.new(:inline, 1, nil, false, {}) }
    assert_raises(NoMethodError) { Heddle::Workers::MapOptions.new(nil, true) }
    assert_predicate Heddle::Workers::PoolOptions.check!(:thread, 2, -> {}), :frozen?
  end

  private

  # @return [Hash{String => Integer}] calls per check (per keyword for NAMED ones)
  def count_checks(&body)
    calls = Hash.new(0)
    spy_on(CHECKS, calls, body)
    calls
  end

  def spy_on(names, calls, body)
    return body.call if names.empty?

    name, *rest = names
    original = Options.method(name)
    spy = lambda do |*args|
      calls[NAMED.include?(name) ? "#{name}#{args.first}" : name.to_s] += 1
      original.call(*args)
    end
    Options.stub(name, spy) { spy_on(rest, calls, body) }
  end

  def assert_once(calls)
    MAP_CHECKS.each { |check| assert_equal 1, calls[check], "#{check} runs once (#{calls})" }
    assert(calls.values.all?(1), "no check runs twice: #{calls}")
  end
end
