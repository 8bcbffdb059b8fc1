# frozen_string_literal: true

require "test_helper"
require "timeout"
require "minitest/mock"

# Lazy process backends (what Heddle::Check uses) and background reaping:
# workers fork with the first chunk, a second only when chunks wait; a
# killed pool's workers are reaped by the reaper thread, never left as
# zombies; the fault behaviours are the eager pool's.
class ProcessLazyTest < Minitest::Test
  Backend = Heddle::Workers::Processes::Backend

  # A lazy backend whose #map brings the block along, as Heddle::Pool#map does.
  def lazy(size: 2, &handler)
    backend = Backend.new(size: size, handler: handler, lazy: true)
    backend.define_singleton_method(:map) { |items, **options| super(items, handler, **options) }
    backend
  end

  def children
    Dir.glob("/proc/[0-9]*/stat").filter_map do |path|
      fields = File.read(path).split(") ").last.split
      File.basename(File.dirname(path)).to_i if fields[1].to_i == Process.pid
    rescue SystemCallError
      nil
    end
  end

  def assert_reaped(pids)
    assert Backend.drain_reaper(10), "the reaper finished"
    pids.each do |pid|
      assert_raises(Errno::ECHILD, "worker #{pid} was reaped") { Process.waitpid(pid, Process::WNOHANG) }
      refute File.exist?("/proc/#{pid}"), "worker #{pid} is gone (no zombie)"
    end
  end

  def assert_died_at(error, index, items)
    assert_equal [index], error.errors.keys
    assert_kind_of Heddle::Workers::WorkerDiedError, error.errors[index]
    assert_equal items - [items[index]], error.results.compact
  end

  def test_forks_nothing_before_the_first_chunk
    backend = lazy { |x| [x * 2, Process.pid] }
    assert_empty backend.worker_pids
    results = Timeout.timeout(20) { Array.new(3) { |i| backend.map([i]) } }
    assert_equal([[0], [2], [4]], results.map { |r| r.map(&:first) })
    pids = backend.worker_pids
    refute_empty pids
    assert_empty results.flatten(1).map(&:last) - pids, "every item ran in a worker of the pool"
    backend.shutdown
    assert_reaped(pids)
  end

  def open_when_two_workers(backend, opener)
    Timeout.timeout(20) { sleep 0.01 until backend.worker_pids.size == 2 }
    opener.puts "go"
  end

  # Item 0 holds the first worker until the pool has forked a second: the
  # other items wait meanwhile, which is what wakes a dormant lane.
  def test_a_second_worker_forks_when_chunks_wait
    gate, opener = IO.pipe
    backend = lazy { |x| (x.zero? && gate.gets) || [x, Process.pid] }
    mapping = Thread.new { backend.map((0..7).to_a) }
    open_when_two_workers(backend, opener)
    results = Timeout.timeout(20) { mapping.value }
    assert_equal (1..7).to_a, results.drop(1).map(&:first)
    pids = backend.worker_pids
    backend.shutdown(kill: true)
    assert_reaped(pids)
  ensure
    [gate, opener].each(&:close)
  end

  def test_kill_9_mid_map_on_a_lazy_pool_keeps_the_results
    ready, signal = IO.pipe
    backend = lazy { |x| x == 50 ? (signal.puts(Process.pid) || sleep(30)) : x }
    killer = Thread.new { Process.kill(:KILL, Integer(ready.gets)) }
    error = Timeout.timeout(20) { assert_raises(Heddle::Workers::Errors) { backend.map((0..99).to_a, fail_fast: false) } }
    killer.join(5)
    assert_died_at(error, 50, (0..99).to_a)
    pids = backend.worker_pids
    backend.shutdown
    assert_reaped(pids)
  ensure
    [ready, signal].each(&:close)
  end

  def pipes
    Dir.children("/proc/self/fd").count do |fd|
      File.readlink("/proc/self/fd/#{fd}").start_with?("pipe:")
    rescue SystemCallError
      false
    end
  end

  def test_a_fork_that_fails_fails_the_items_instead_of_hanging
    # Pipes of earlier tests' pools close when the reaper finishes and GC
    # collects their IOs: settle both first, and count only what this test adds.
    Backend.drain_reaper(10)
    GC.start
    open_pipes = pipes
    backend = lazy { |x| x }
    error = Process.stub(:fork, ->(*) { raise Errno::EAGAIN }) do
      Timeout.timeout(20) { assert_raises(Heddle::Workers::WorkerDiedError) { backend.map([1, 2]) } }
    end
    assert_match(/could not fork a worker process for item 1 .*Resource temporarily unavailable/, error.message)
    assert_operator pipes, :<=, open_pipes, "the failed fork left no pipe open"
    assert_equal [7], Timeout.timeout(20) { backend.map([7]) }, "the next chunk forks again"
    pids = backend.worker_pids
    backend.shutdown
    assert_reaped(pids)
  end

  def test_shutdown_with_kill_reaps_in_the_background
    before = children
    pool = Heddle::Pool.new(worker: :process, size: 2) { |x| x }
    pids = pool.worker_pids
    assert_equal 2, pids.size
    assert_equal [1, 2], pool.map([1, 2])
    pool.shutdown(kill: true)
    assert_reaped(pids)
    assert_empty children - before
  end

  def test_a_process_check_leaves_no_worker_behind
    require "heddle/check"
    before = children
    prop = Heddle::Check.property(Heddle::Check.integer) { |x| x < 50 || raise("big") }
    result = Timeout.timeout(30) { Heddle::Check.check(prop, worker: :process, size: 2, seed: 5) }
    assert_equal 50, result.counterexample
    assert Backend.drain_reaper(10)
    assert_empty children - before
  end
end
