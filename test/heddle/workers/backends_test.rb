# frozen_string_literal: true

require "test_helper"
require "etc"

# The registry of worker backends: one line per backend, which the door
# checks and Heddle::Pool read.
class WorkersBackendsTest < Minitest::Test
  B = Heddle::Workers::Backends

  def test_names_in_the_order_messages_list_them
    assert_equal %i[inline fiber thread process ractor redis], B::NAMES
    error = assert_raises(ArgumentError) { Heddle::Pool.new(worker: :goroutine) { nil } }
    assert_equal "unknown worker :goroutine (Symbol); use one of :inline, :fiber, :thread, :process, :ractor, :redis",
                 error.message
  end

  def test_default_sizes
    assert_equal [1, 64, 8, Etc.nprocessors, Etc.nprocessors, nil], B::LIST.map(&:default)
    (B::NAMES - [:redis]).each { |name| assert_equal B.fetch(name).default, Heddle::Pool.default_size(name) }
    assert_nil Heddle::Pool.default_size(:redis)
  end

  def test_max_sizes_bound_size_at_the_door
    assert_equal [10_000, Heddle::EventLoop::MAX_LIVE_FIBERS, 10_000, 1_024, 1_024, 10_000], B::LIST.map(&:max_size)
    assert_equal 10_000, B.max_size(:goroutine)
    error = assert_raises(ArgumentError) { Heddle::Pool.new(worker: :process, size: 1_025) { nil } }
    assert_match(/size: 1025 is more process workers than a pool may have \(at most 1024\)/, error.message)
  end

  def test_keywords
    assert_equal %i[process], B.taking(:lazy)
    assert_equal %i[redis], B.taking(:remote)
    assert B.remote?(:redis)
    refute B.remote?(:thread)
    refute B.remote?(:goroutine)
  end

  def test_in_tree_backends_are_their_classes_and_name_no_gem
    B::LIST.reject(&:feature).each do |entry|
      assert_operator entry.backend_class, :<, Heddle::Workers::Backend, entry.name
      assert_nil entry.gem
    end
    assert_equal ["heddle/workers/redis", "heddle-redis"], [B.fetch(:redis).feature, B.fetch(:redis).gem]
  end

  def test_a_name_no_backend_has_is_refused_by_fetch
    assert_raises(KeyError) { B.fetch(:goroutine) }
  end

  def test_entries_are_frozen
    assert_predicate B::LIST, :frozen?
    assert(B::LIST.all?(&:frozen?))
  end
end
