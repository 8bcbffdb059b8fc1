# frozen_string_literal: true

require "test_helper"
require "timeout"
require "heddle/check"
require "heddle/soak"
require "heddle/soak/door_bounds"

# Doors that took absurd sizes: a map of 2 items with size: 10**6
# fibers took 23 s, a thread pool of size: 10_000 for 2 items started 10,000
# threads, generators with min:/max: of 10**30 hung, a set of booleans with
# min: 5 answered 2 elements, array(42) and float(min: nil) raised
# NoMethodError from inside. The properties try sizes and bounds at random.
class DoorBoundsTest < Minitest::Test
  LIMIT = 120 # seconds; a hang ends the test instead of the suite
  Bounds = Heddle::Soak::DoorBounds

  def test_maps_with_any_size_work_or_raise_naming_size
    result = Timeout.timeout(LIMIT) { Heddle::Check.check(Bounds.sizes_property, runs: 60, seed: 28) }
    assert result.passed?, -> { result.report }
  end

  def test_generators_with_any_bounds_work_or_raise_naming_the_option
    [28, 3_269_642_497].each do |seed| # the second found hash(boolean, ..., min: 3) in a soak
      result = Timeout.timeout(LIMIT) { Heddle::Check.check(Bounds.generators_property, runs: 150, seed: seed) }
      assert result.passed?, -> { result.report }
    end
  end

  def test_a_map_starts_no_more_threads_than_items
    before = Thread.list.size
    extra = Heddle.map([1, 2], worker: :thread, size: 10_000) { Thread.list.size - before }
    assert_operator extra.max, :<=, 3 # 2 workers, and at most one thread of the process meanwhile
  end

  def test_a_size_no_machine_honours_is_refused_at_the_door
    error = assert_raises(ArgumentError) { Heddle.map([1, 2], worker: :fiber, size: 10**6) { |x| x } }
    assert_includes error.message, "size: 1000000"
  end

  def test_impossible_or_ill_typed_generators_are_refused_naming_the_option
    check = Heddle::Check
    assert_includes assert_raises(ArgumentError) { check.set(check.boolean, min: 5) }.message, "min: 5"
    assert_includes assert_raises(TypeError) { check.array(42) }.message, "of:"
    assert_includes assert_raises(TypeError) { check.float(min: nil) }.message, "min:"
    assert_includes assert_raises(ArgumentError) { check.array(check.boolean, min: 10**30) }.message, "min:"
  end

  def test_a_hash_cannot_have_more_keys_than_its_keys_have_values
    check = Heddle::Check
    assert_includes assert_raises(ArgumentError) { check.hash(check.boolean, check.integer, min: 3) }.message, "min: 3"
  end

  def test_huge_bounds_generate_without_hanging
    check = Heddle::Check
    property = check.property(check.array(check.integer(min: -(10**30), max: 10**30), max: 10**30)) do |values|
      values.all? { |v| v.abs <= 10**30 }
    end
    result = Timeout.timeout(LIMIT) { check.check(property, runs: 20, seed: 28) }
    assert result.passed?, -> { result.report }
  end
end
