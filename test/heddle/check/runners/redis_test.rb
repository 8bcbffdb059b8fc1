# frozen_string_literal: true

require "test_helper"
require_relative "redis_properties"

# Checks of registered properties on `heddle worker` processes through Redis:
# the same outcome as inline for a seed.
class CheckRedisTest < Minitest::Test
  include RedisFixture::TestHelpers

  # Two workers that know the properties, started once (stopped at exit).
  def self.workers
    @workers ||= Array.new(2) do
      RedisFixture::Worker.new(RedisFixture.shared, requires: [File.join(__dir__, "redis_properties.rb")])
    end.each(&:ready)
  end

  def setup
    super
    @server = RedisFixture.shared
    self.class.workers
  end

  def outcome(result) = [result.counterexample, result.original, result.runs, result.shrinks, result.error&.message]

  def check(name, **options)
    bounded { Heddle::Check.check(name, worker: :redis, url: @server.url, **options) }
  end

  def test_a_registered_property_gives_the_inline_counterexample
    %i[redis_test.sum_small redis_test.raises].each do |name|
      inline = Heddle::Check.check(name, seed: 21)
      assert_predicate inline, :failed?
      assert_equal outcome(inline), outcome(check(name, seed: 21)), name
    end
    assert_equal [101], Heddle::Check.check(:"redis_test.sum_small", seed: 21).counterexample
  end

  def test_a_passing_property_runs_every_case
    result = check(:"redis_test.commutes", seed: 3, runs: 300)
    assert_predicate result, :passed?
    assert_equal 300, result.runs
  end

  def test_bad_uses_are_argument_errors
    assert_raises(TypeError) { Heddle::Check.check(:"redis_test.nope", worker: :redis, url: @server.url) }
    assert_raises(ArgumentError) { Heddle::Check.check(:"redis_test.commutes", worker: :redis) }
    assert_raises(ArgumentError) { Heddle::Check.check(:"redis_test.commutes", url: @server.url) }
    unregistered = Heddle::Check.property(Heddle::Check.integer) { |x| x }
    error = assert_raises(ArgumentError) { Heddle::Check.check(unregistered, worker: :redis, url: @server.url) }
    assert_match(/Heddle::Check.register/, error.message)
  end
end
