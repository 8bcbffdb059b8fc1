# frozen_string_literal: true

require "test_helper"
require "heddle/bench"

# The map suite checks every map's results, but works the expected results
# out in the rows' setup: a check inside the timed run added a serial map to
# every row.
class MapSuiteTest < Minitest::Test
  Ctx = Struct.new(:quick) do
    def quick? = quick
  end

  # Loaded once: loading the file again redefines its constants, which Ruby warns about.
  def self.loaded = @loaded ||= load(File.join(Heddle::Bench::SUITES_DIR, "map.rb"))

  def suite
    self.class.loaded
    Heddle::Bench::MapSuite
  end

  def test_items_work_out_the_expected_results_and_the_check_reuses_them
    map = suite
    items = map.items(:heavy, Ctx.new(true))
    assert_equal map::QUICK_HEAVY_ITEMS, items.size
    results = items.map { |i| map.heavy(i) }
    calls = 0
    counting = Module.new { define_method(:heavy) { |item| (calls += 1) && super(item) } }
    map.singleton_class.prepend(counting)
    assert_equal({ items: items.size, failures: 0 }, map.check(:heavy, items, results))
    assert_equal({ items: items.size, failures: 1 }, map.check(:heavy, items, results.reverse))
    assert_equal 0, calls, "the check mapped the items again"
  end

  def test_trivial_items_ignore_quick
    assert_equal suite::TRIVIAL_ITEMS, suite.items(:trivial, Ctx.new(true)).size
  end
end
