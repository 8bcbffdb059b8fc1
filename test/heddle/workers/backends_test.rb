# frozen_string_literal: true

require "test_helper"
require "etc"
require "open3"
require "rbconfig"

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

  # Bundler off, so that only the load path given reaches the child (bundler/setup would add
  # every gemspec's lib root, heddle-redis's among them).
  NO_BUNDLER = %w[RUBYOPT RUBYLIB BUNDLE_GEMFILE BUNDLE_BIN_PATH BUNDLER_SETUP BUNDLER_VERSION].to_h { |k| [k, nil] }
  # What Pool.new and Heddle.map say, in a Ruby whose load path lacks lib/heddle-redis.
  WITHOUT_REDIS_GEM = <<~RUBY
    require "heddle"
    [-> { Heddle::Pool.new(worker: :redis, handler: :x, url: "redis://127.0.0.1:1/0") },
     -> { Heddle.map([1], worker: :redis, handler: :x, url: "redis://127.0.0.1:1/0") }].each do |call|
      call.call
    rescue LoadError => e
      puts e.message
    end
  RUBY

  def test_worker_redis_without_the_heddle_redis_gem_names_the_gem_in_one_line
    roots = LibRoots::DIRS.reject { |dir| dir.end_with?("/heddle-redis") }
    out, err, status = Open3.capture3(NO_BUNDLER, RbConfig.ruby, "-w", *roots.flat_map { |dir| ["-I", dir] },
                                      "-e", WITHOUT_REDIS_GEM)
    assert status.success?, err
    assert_empty err
    line = "worker: :redis needs the heddle-redis gem: run `gem install heddle-redis`, or add " \
           "`gem \"heddle-redis\"` to your Gemfile and run `bundle install`\n"
    assert_equal line * 2, out
  end

  def test_entries_are_frozen
    assert_predicate B::LIST, :frozen?
    assert(B::LIST.all?(&:frozen?))
  end
end
