# frozen_string_literal: true

require "test_helper"
require "timeout"

# The thread pool's ask: the asking fiber's reusable asker goes through the
# pool's queue and the answer comes back on it, no job or promise.
class ThreadPoolTest < Minitest::Test
  def with_pool(handler, size: 2, **options)
    pool = Heddle::Pool.new(worker: :thread, size: size, **options, &handler)
    Timeout.timeout(20) { yield pool }
  ensure
    pool&.shutdown(kill: true)
  end

  def test_ask_answers_on_a_worker_thread
    threads = Queue.new
    answers = with_pool(->(x) { (threads << Thread.current) && (x + 1) }) do |pool|
      Array.new(5) { |i| pool.ask(i) }
    end
    assert_equal [1, 2, 3, 4, 5], answers
    refute_includes Array.new(threads.size) { threads.pop }, Thread.current
  end

  def test_ask_raises_the_block_error_with_item_and_index
    with_pool(->(x) { x == :bad ? raise(KeyError, "no #{x}") : x }) do |pool|
      error = assert_raises(KeyError) { pool.ask(:bad) }
      assert_equal ["no bad", :bad, 0, [nil]], [error.message, error.item, error.index, error.results]
      assert_equal :good, pool.ask(:good)
    end
  end

  def test_ask_keeps_item_timeout_and_its_own_timeout
    with_pool(->(x) { sleep(x) && x }, size: 1, item_timeout: 0.05) do |pool|
      error = assert_raises(Heddle::Workers::TimeoutError) { pool.ask(5) }
      assert_equal [5, 0], [error.item, error.index]
      assert_equal 0, pool.ask(0, timeout: 5)
    end
  end

  def test_an_interrupted_ask_never_reads_a_late_answer
    with_pool(->(x) { x == :slow ? sleep(0.2) && x : x }, size: 1) do |pool|
      assert_raises(Timeout::Error) { Timeout.timeout(0.05) { pool.ask(:slow) } }
      assert_equal :next, pool.ask(:next)
    end
  end

  def test_asks_from_many_threads_each_get_their_own_answers
    answers = with_pool(->(x) { x * 2 }, size: 3) do |pool|
      Array.new(4) { |t| Thread.new { Array.new(50) { |i| pool.ask((t * 100) + i) } } }.map(&:value)
    end
    assert_equal(Array.new(4) { |t| Array.new(50) { |i| ((t * 100) + i) * 2 } }, answers)
  end

  # The map's fast path writes results in runs and counts each run once:
  # falsy results, errors ending runs mid-chunk and many chunks all add up.
  RUN_HANDLER = ->(x) { (x % 97).zero? ? raise(ArgumentError, "bad #{x}") : (x.even? && nil) }
  RUN_ITEMS = (1..5_000).to_a.freeze

  def test_map_counts_runs_of_items_between_errors
    error = with_pool(RUN_HANDLER, size: 3) do |pool|
      assert_raises(Heddle::Workers::Errors) { pool.map(RUN_ITEMS, fail_fast: false) }
    end
    bad = RUN_ITEMS.select { |x| (x % 97).zero? }
    assert_equal(bad.map(&:pred), error.errors.keys.sort)
    assert_equal(RUN_ITEMS.map { |x| x.odd? && !bad.include?(x) ? false : nil }, error.results)
  end

  def test_kill_cancels_a_queued_ask
    gate = Thread::Queue.new
    started = Thread::Queue.new
    pool = Heddle::Pool.new(worker: :thread, size: 1) { |x| (started << x) && gate.pop && x }
    pool.submit(:running)
    started.pop
    asked = Thread.new { pool.ask(:queued) }
    asked.report_on_exception = false
    Timeout.timeout(5) { Thread.pass until asked.status == "sleep" }
    pool.shutdown(kill: true)
    error = assert_raises(Heddle::Workers::CancelledError) { asked.join(5).value }
    assert_equal :queued, error.item
  ensure
    gate << :go << :go
    asked&.kill
  end
end
