# frozen_string_literal: true

require "test_helper"
require "timeout"

# The API every backend shares: map in order, submit, ask, errors, timeouts.
class PoolTest < Minitest::Test
  include InHeddleRun

  IN_PROCESS = %i[inline thread fiber].freeze
  ALL = %i[inline thread fiber process].freeze

  def with_pool(worker, handler, size: 2, **options)
    pool = Heddle::Pool.new(worker: worker, size: size, **options, &handler)
    Timeout.timeout(20) { yield pool }
  ensure
    pool&.shutdown(kill: true)
  end

  ALL.each do |worker|
    define_method("test_#{worker}_map_keeps_input_order") do
      items = (1..300).to_a.shuffle(random: Random.new(1))
      with_pool(worker, ->(x) { x * 3 }) do |pool|
        assert_equal(items.map { |x| x * 3 }, pool.map(items))
        assert_equal [], pool.map([])
      end
    end

    define_method("test_#{worker}_submit_and_ask") do
      with_pool(worker, ->(x) { "#{x}!" }) do |pool|
        promises = %w[a b c].map { |s| pool.submit(s) }
        assert_equal %w[a! b! c!], promises.map(&:value!)
        assert_equal "OK!", pool.ask("OK")
      end
    end

    define_method("test_#{worker}_block_error_comes_back_as_itself_with_results") do
      # One worker, so that every item before the failing one has completed.
      with_pool(worker, ->(x) { x == 7 ? raise(KeyError, "no #{x}") : x }, size: 1) do |pool|
        error = assert_raises(KeyError) { pool.map((0..20).to_a) }
        assert_equal "no 7", error.message
        assert_equal 7, error.item
        assert_equal 7, error.index
        assert_equal [0, 1, 2, 3, 4, 5, 6], error.results.first(7)
        assert(error.backtrace.any? { |line| line.include?(__FILE__) }, "backtrace points at the block")
        assert_equal [1, 2], pool.map([1, 2]), "the pool still works"
      end
    end

    define_method("test_#{worker}_collects_every_error_without_fail_fast") do
      with_pool(worker, ->(x) { x.odd? ? raise(ArgumentError, "odd #{x}") : x }) do |pool|
        error = assert_raises(Heddle::Workers::Errors) { pool.map((0..9).to_a, fail_fast: false) }
        assert_equal [1, 3, 5, 7, 9], error.errors.keys.sort
        assert(error.errors.values.all?(ArgumentError))
        assert_equal [0, nil, 2, nil, 4, nil, 6, nil, 8, nil], error.results
      end
    end

    define_method("test_#{worker}_submit_rejects_with_the_block_error") do
      with_pool(worker, ->(x) { raise IndexError, x.to_s }) do |pool|
        error = assert_raises(IndexError) { pool.submit(5).value! }
        assert_equal "5", error.message
      end
    end

    define_method("test_#{worker}_shutdown_is_idempotent_and_final") do
      pool = Heddle::Pool.new(worker: worker, size: 2) { |x| x }
      pool.shutdown
      pool.shutdown
      assert_predicate pool, :shutdown?
      assert_raises(Heddle::Workers::Error) { pool.map([1]) }
    end

    define_method("test_#{worker}_item_timeout") do
      with_pool(worker, ->(x) { x == 2 ? sleep(3) : x }, size: 1, item_timeout: 0.2) do |pool|
        error = assert_raises(Heddle::Workers::TimeoutError) { pool.map([0, 1, 2, 3]) }
        assert_equal 2, error.index
        assert_equal [0, 1], error.results.first(2)
      end
    end
  end

  IN_PROCESS.each do |worker|
    define_method("test_#{worker}_map_timeout_keeps_completed_results") do
      with_pool(worker, ->(x) { x.zero? ? x : sleep(3) }, size: 1) do |pool|
        error = assert_raises(Heddle::Workers::TimeoutError) { pool.map([0, 1], timeout: 0.3) }
        assert_equal [0, nil], error.results
      end
    end
  end

  # A forked child inherits the pool object but not its workers (threads,
  # lanes and fibers do not survive a fork): it is told so, not left waiting.
  %i[thread fiber process].each do |worker|
    define_method("test_a_#{worker}_pool_used_in_a_forked_child_says_it_belongs_to_the_parent") do
      with_pool(worker, ->(x) { x }) do |pool|
        child = fork do
          pool.submit(1)
          exit!(2)
        rescue Heddle::Workers::Error => e
          exit!(e.message.include?("belongs to process #{Process.ppid}") ? 0 : 1)
        end
        assert_equal 0, Process.wait2(child)[1].exitstatus
        assert_equal [1], pool.map([1]), "the parent's pool is untouched"
      end
    end
  end

  def test_an_inline_pool_works_in_a_forked_child
    with_pool(:inline, ->(x) { x * 2 }) do |pool|
      child = fork { exit!(pool.map([21]) == [42] ? 0 : 1) }
      assert_equal 0, Process.wait2(child)[1].exitstatus
    end
  end

  # The inline map's timeout interrupts the running item with heddle's own
  # error on both Rubies (3.3's Timeout unwinds with Timeout::ExitException),
  # past a block's `rescue => e`, and the item's ensure runs.
  def test_inline_map_timeout_interrupts_the_item_past_its_rescue
    cleaned = Queue.new
    handler = lambda do |x|
      sleep 3
      x
    rescue StandardError
      :swallowed
    ensure
      cleaned << x
    end
    with_pool(:inline, handler, item_timeout: 10) do |pool|
      error = assert_raises(Heddle::Workers::TimeoutError) { pool.map([7, 8], timeout: 0.2) }
      assert_equal [nil, nil], error.results
      assert_equal 7, cleaned.pop
    end
  end

  # Ten items that each wait until all ten have started: only finishes if
  # blocking calls of the block overlap (no timing involved).
  %i[thread fiber].each do |worker|
    define_method("test_#{worker}_blocking_items_overlap") do
      started = Thread::Queue.new
      gate = Thread::Queue.new
      opener = Thread.new do
        10.times { started.pop }
        10.times { gate << :go }
      end
      results = Timeout.timeout(10) do
        Heddle.map((1..10).to_a, worker: worker, size: 10) do |x|
          (started << x) && gate.pop && x
        end
      end
      assert_equal (1..10).to_a, results
    ensure
      opener&.kill
    end
  end

  def test_fiber_pool_from_inside_heddle_run
    pool = Heddle::Pool.new(worker: :fiber, size: 3) { |x| x * 2 }
    assert_equal([2, 4, 6], in_heddle_run { pool.map([1, 2, 3]) })
  ensure
    pool&.shutdown
  end

  def test_fiber_pool_made_inside_heddle_run_shares_its_loop
    threads = Queue.new
    results = in_heddle_run do
      pool = Heddle::Pool.new(worker: :fiber, size: 4) { |x| (threads << Thread.current) && (x * 3) }
      [pool.map([1, 2, 3]), pool.ask(5), pool.submit(6).value!, Thread.current].tap { pool.shutdown }
    end
    assert_equal [[3, 6, 9], 15, 18], results.first(3)
    assert_equal [results.last], Array.new(threads.size) { threads.pop }.uniq
  end

  def test_heddle_map_each_and_each_with_index
    assert_equal [2, 4, 6], Heddle.map([1, 2, 3], worker: :thread, size: 2) { |x| x * 2 }
    seen = Queue.new
    assert_equal [1, 2], Heddle.each([1, 2], worker: :thread) { |x| seen << x }
    assert_equal [1, 2], Array.new(seen.size) { seen.pop }.sort
    pairs = Queue.new
    Heddle.each_with_index(%w[a b], worker: :inline) { |s, i| pairs << [s, i] }
    assert_equal [["a", 0], ["b", 1]], Array.new(pairs.size) { pairs.pop }.sort
  end

  def test_bad_arguments_name_the_value_and_the_choices
    error = assert_raises(ArgumentError) { Heddle::Pool.new(worker: :goroutine) { nil } }
    assert_match(/:goroutine.*:inline, :fiber, :thread, :process, :ractor/, error.message)
    assert_match(/0/, assert_raises(ArgumentError) { Heddle::Pool.new(worker: :thread, size: 0) { nil } }.message)
    assert_match(/"2"/, assert_raises(ArgumentError) { Heddle.map([1], worker: :thread, size: "2") { nil } }.message)
    assert_match(/block/, assert_raises(ArgumentError) { Heddle::Pool.new(worker: :thread) }.message)
  end

  def test_default_sizes
    assert_equal Etc.nprocessors, Heddle::Pool.default_size(:process)
    assert_equal Etc.nprocessors, Heddle::Pool.default_size(:ractor)
    assert_operator Heddle::Pool.default_size(:thread), :>, 1
    assert_operator Heddle::Pool.default_size(:fiber), :>, 1
  end

  def test_lazy_process_pool_maps_in_child_processes
    pool = Heddle::Pool.new(worker: :process, size: 2, lazy: true) { |x| [x + 1, Process.pid] }
    results = Timeout.timeout(20) { pool.map([1, 2, 3]) }
    assert_equal [2, 3, 4], results.map(&:first)
    refute_includes results.map(&:last), Process.pid
  ensure
    pool&.shutdown
  end

  def test_lazy_is_for_process_pools_only
    error = assert_raises(ArgumentError) { Heddle::Pool.new(worker: :thread, lazy: true) { |x| x } }
    assert_match(/lazy: true is for worker: :process only.*:thread/, error.message)
  end
end
