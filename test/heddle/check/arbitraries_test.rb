# frozen_string_literal: true

require "test_helper"
require "heddle/check"

class CheckArbitrariesTest < Minitest::Test
  C = Heddle::Check

  def sample(arbitrary, count = 300, seed: 1, size: 30) = arbitrary.sample(count, seed: seed, size: size)

  def test_integers_stay_in_range_and_hit_the_edges
    values = sample(C.integer(min: -50, max: 70))
    assert(values.all? { |v| v.between?(-50, 70) })
    [0, 1, -1, -50, 70].each { |edge| assert_includes values, edge }
  end

  def test_nat_is_never_negative
    assert(sample(C.nat(max: 10)).all? { |v| v.between?(0, 10) })
  end

  def test_bad_bounds_are_argument_errors_naming_the_values
    error = assert_raises(ArgumentError) { C.integer(min: 5, max: 1) }
    assert_includes error.message, "min: 5"
    assert_raises(ArgumentError) { C.array(C.nat, min: 3, max: 1) }
  end

  def test_floats_include_signed_zeros_and_infinities
    values = sample(C.float, 600)
    assert(values.any? { |v| v.zero? && (1 / v).negative? }, "-0.0 expected")
    assert(values.any? { |v| v.eql?(0.0) })
    assert_includes values, Float::INFINITY
    assert_includes values, -Float::INFINITY
  end

  def test_floats_include_nan_only_when_asked_and_respect_bounds
    refute(sample(C.float, 600).any?(&:nan?))
    assert(sample(C.float(nan: true), 600).any?(&:nan?))
    assert(sample(C.float(min: -1, max: 1)).all? { |v| v.between?(-1, 1) })
  end

  def test_booleans_constants_and_nil
    assert_equal [false, true], sample(C.boolean).uniq.sort_by(&:to_s)
    assert_equal [:x], sample(C.constant(:x), 5).uniq
    assert_equal [nil], sample(C.nil, 5).uniq
  end

  def test_strings_are_valid_utf8_in_every_family
    %i[string ascii_string printable_string alphanumeric_string].each do |family|
      values = sample(C.public_send(family), 200)
      assert(values.all? { |s| s.encoding == Encoding::UTF_8 && s.valid_encoding? }, family)
      assert_includes values, "", "#{family} should produce the empty string"
    end
  end

  def test_string_families_keep_to_their_characters
    assert(sample(C.alphanumeric_string).join.match?(/\A[a-zA-Z0-9]*\z/))
    assert(sample(C.string(of: C.hex_char, min: 2, max: 4)).all? { |s| s.match?(/\A[0-9a-f]{2,4}\z/) })
    assert(sample(C.char, 500).any? { |c| c.ord > 0x7f }, "char should reach beyond ASCII")
  end

  def test_symbols
    assert(sample(C.symbol).all? { |s| s.is_a?(Symbol) && !s.empty? })
  end

  def test_arrays_respect_bounds_and_include_empty
    assert(sample(C.array(C.nat, min: 2, max: 4)).all? { |a| a.size.between?(2, 4) })
    assert(sample(C.array(C.nat)).any?(&:empty?), "empty collections are an edge case")
  end

  def test_sets_have_distinct_elements
    sets = sample(C.set(C.nat(max: 3), max: 10))
    assert(sets.all? { |s| s.is_a?(Set) && s.size <= 4 })
    assert_operator sets.map(&:size).max, :>, 1
  end

  def test_hashes_have_distinct_keys
    hashes = sample(C.hash(C.symbol, C.boolean, max: 5))
    assert(hashes.all? { |h| h.is_a?(Hash) && h.size <= 5 })
    assert(hashes.flat_map(&:values).all? { |v| [true, false].include?(v) })
  end

  def test_sizing_keeps_early_collections_small
    assert(sample(C.array(C.nat), 50, size: 0).all?(&:empty?))
    assert(sample(C.array(C.nat), 50, size: 30).any? { |a| a.size > 10 })
  end

  def test_tuple_and_fixed_hash
    assert(sample(C.tuple(C.boolean, C.nat(max: 3))).all? { |b, n| [true, false].include?(b) && n.between?(0, 3) })
    assert(sample(C.fixed_hash(a: C.nat(max: 2), b: C.constant(1))).all? { |h| h.keys == %i[a b] && h[:b] == 1 })
    assert_raises(TypeError) { C.tuple(1) }
  end

  def test_one_of_takes_values_and_arbitraries_and_frequency_respects_zero_weights
    values = sample(C.one_of(:red, :green, C.integer(min: 10, max: 12)))
    assert_equal %i[green red], values.grep(Symbol).uniq.sort
    assert(values.grep(Integer).all? { |v| v.between?(10, 12) })
    assert_equal [1], sample(C.frequency([0, 0], [5, 1])).uniq
  end

  def test_dates_and_times_stay_in_range
    min = Date.new(2020, 1, 1)
    max = Date.new(2020, 12, 31)
    assert(sample(C.date(min: min, max: max)).all? { |d| d.is_a?(Date) && d.between?(min, max) })
    times = sample(C.time(min: Time.utc(2021), max: Time.utc(2022)))
    assert(times.all? { |t| t.utc? && t.between?(Time.utc(2021), Time.utc(2022)) })
  end

  def test_map_filter_and_bind
    assert(sample(C.nat(max: 9).map { |n| n * 2 }).all?(&:even?))
    assert(sample(C.integer.filter(&:odd?)).all?(&:odd?))
    pairs = sample(C.integer(min: 1, max: 4).bind { |n| C.array(C.constant(n), min: n, max: n) })
    assert(pairs.all? { |a| a.size == a.first && a.uniq.size == 1 })
  end

  def test_filter_gives_up_with_a_clear_error_instead_of_looping
    error = assert_raises(Heddle::Check::FilterExhaustedError) do
      C.nat(max: 5).filter(max_attempts: 20) { |n| n > 5 }.sample(1)
    end
    assert_includes error.message, "rejected 20 values"
  end

  def test_a_filter_grows_the_size_instead_of_giving_up_on_empty_arrays
    long = C.array(C.nat).filter { |a| a.size >= 3 }
    assert(sample(long, 20, size: 0).all? { |a| a.size >= 3 })
    assert_predicate C.check(C.property(long) { |a| a.size >= 3 }, runs: 1, seed: 1), :passed?
  end

  def test_integers_copy_and_step_from_recent_draws
    pairs = sample(C.tuple(C.integer, C.integer), 2000)
    assert_operator pairs.count { |a, b| a == b }, :>=, 40, "one draw in 16 copies (2000 pairs: ~125)"
    assert_operator pairs.count { |a, b| (a - b).abs == 1 }, :>=, 40, "one in 16 steps by 1 (~125)"
  end

  def test_lazy_trees_are_bounded_by_the_size_and_end_in_their_first_branch
    tree = C.lazy { C.one_of(C.constant(:leaf), C.tuple(tree, tree)) }
    count = ->(t) { t == :leaf ? 1 : count.call(t[0]) + count.call(t[1]) }
    assert(sample(tree, 100, size: 0).all?(:leaf))
    small = sample(tree, 200, size: 4).map(&count)
    assert_operator small.max, :<=, 10, "at most 4 nodes, then leaves"
    assert_operator sample(tree, 200, size: 30).map(&count).max, :>, small.max
  end

  def test_recursive_builds_on_its_base
    nested = C.recursive(C.nat(max: 9)) { |t| C.array(t, max: 3) }
    values = sample(nested, 200)
    assert(values.flatten.all? { |v| v.between?(0, 9) })
    assert(values.any?(Array) && values.any?(Integer))
  end

  def test_a_recursion_whose_first_branch_recurses_is_a_harness_error
    endless = C.lazy { C.one_of(C.tuple(endless, endless), C.nat) }
    error = assert_raises(Heddle::Check::HarnessError) { endless.sample(20, size: 2) }
    assert_includes error.message, "base case first"
    assert_raises(ArgumentError) { C.lazy }
    assert_raises(ArgumentError) { C.recursive(C.nat) }
  end

  def test_generation_is_deterministic_per_seed
    arb = C.array(C.one_of(C.ascii_string, C.float, C.date))
    assert_equal arb.sample(20, seed: 99), arb.sample(20, seed: 99)
  end

  def test_hash_without_arguments_is_still_object_hash
    assert_kind_of Integer, Heddle::Check.hash
    assert_equal({ Heddle::Check => 1 }[Heddle::Check], 1)
  end
end
