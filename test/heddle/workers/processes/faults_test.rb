# frozen_string_literal: true

require "test_helper"
require "timeout"

# Faults of process workers: each gives the documented error with the
# completed results kept, and leaves no zombie process and no open pipe.
class ProcessFaultsTest < Minitest::Test
  def setup
    @fds = open_fds
  end

  # Runs the block with a two-process pool, then checks that shutting the
  # pool down reaped every worker it ever had and closed every pipe.
  def with_pool(handler)
    pool = Heddle::Pool.new(worker: :process, size: 2, &handler)
    pids = pool.worker_pids
    Timeout.timeout(20) { yield pool, pids }
    pids |= pool.worker_pids
    pool.shutdown
    assert_reaped(pids)
    assert_empty open_fds - @fds, "no pipe left open"
  end

  # The pipes open now. Only new ones count: other tests' garbage may close
  # theirs meanwhile.
  def open_fds
    GC.start
    Dir.children("/proc/self/fd").select { |fd| (File.readlink("/proc/self/fd/#{fd}") rescue "").start_with?("pipe:") } # rubocop:disable Style/RescueModifier
  end

  def assert_only_error(collected, index, klass, message)
    assert_equal [index], collected.errors.keys
    assert_kind_of klass, collected.errors[index]
    assert_match message, collected.errors[index].message
  end

  def assert_reaped(pids)
    pids.each do |pid|
      assert_raises(Errno::ECHILD, "worker #{pid} was reaped") { Process.waitpid(pid, Process::WNOHANG) }
      refute File.exist?("/proc/#{pid}"), "worker #{pid} is gone (no zombie)"
    end
  end

  def test_kill_9_of_a_worker_mid_map
    ready, signal = IO.pipe
    @fds = open_fds
    with_pool(->(x) { x == 500 ? (signal.puts(Process.pid) || sleep(30)) : x }) do |pool, _pids|
      victim = kill_when_ready(ready)
      error = assert_raises(Heddle::Workers::Errors) { pool.map((0..999).to_a, fail_fast: false) }
      victim.join
      assert_only_error(error, 500, Heddle::Workers::WorkerDiedError, /killed by SIGKILL while running item 500 /)
      assert_equal (0..999).to_a - [500], error.results.compact
      assert_equal [1, 2, 3], pool.map([1, 2, 3]), "a replacement worker serves the pool"
    end
  ensure
    [ready, signal].each(&:close)
  end

  def test_exit_bang_in_the_block
    with_pool(->(x) { x == 3 ? exit!(7) : x * 2 }) do |pool, _pids|
      error = assert_raises(Heddle::Workers::WorkerDiedError) { pool.map([3]) }
      assert_match(/exited with status 7 while running item 3 \(index 0\)/, error.message)
      collected = assert_raises(Heddle::Workers::Errors) { pool.map((0..9).to_a, fail_fast: false) }
      assert_equal [3], collected.errors.keys
      assert_kind_of Heddle::Workers::WorkerDiedError, collected.errors[3]
      assert_equal [0, 2, 4, nil, 8, 10, 12, 14, 16, 18], collected.results
      assert_equal [2], pool.map([1])
    end
  end

  def test_unmarshalable_result_names_the_item
    with_pool(->(x) { x == 4 ? -> {} : x }) do |pool, _pids|
      error = assert_raises(Heddle::Workers::UnmarshalableError) { pool.map([4]) }
      assert_match(/result of item 4 .*Proc/, error.message)
      collected = assert_raises(Heddle::Workers::Errors) { pool.map((0..9).to_a, fail_fast: false) }
      assert_kind_of Heddle::Workers::UnmarshalableError, collected.errors[4]
      assert_equal [0, 1, 2, 3, nil, 5, 6, 7, 8, 9], collected.results
    end
  end

  def test_unmarshalable_item_and_exception
    with_pool(->(x) { x == 1 ? raise(unmarshalable_error) : x }) do |pool, _pids|
      items = [0, 1, 2, proc { 3 }]
      error = assert_raises(Heddle::Workers::Errors) { pool.map(items, fail_fast: false) }
      assert_equal [1, 3], error.errors.keys.sort
      assert_match(/item 1 raised .*odd/, error.errors[1].message)
      assert_match(/item #<Proc.* \(index 3\) cannot be sent/, error.errors[3].message)
      assert_equal [0, nil, 2, nil], error.results
    end
  end

  def test_a_block_raising_in_1_of_1000_items
    with_pool(->(x) { x == 617 ? raise(ArgumentError, "no #{x}") : -x }) do |pool, _pids|
      error = assert_raises(ArgumentError) { pool.map((0..999).to_a) }
      assert_equal "no 617", error.message
      assert_equal 617, error.index
      error.results.each_with_index { |result, i| assert_equal(-i, result) if result }
      collected = assert_raises(Heddle::Workers::Errors) { pool.map((0..999).to_a, fail_fast: false) }
      assert_only_error(collected, 617, ArgumentError, /no 617/)
      assert_equal 999, collected.results.compact.size
    end
  end

  # SIGTERM or SIGINT to a busy worker ends that worker (its ensure blocks
  # run first); the caller hears a WorkerDiedError naming the signal, never
  # the SignalException itself, which would end the caller.
  %w[TERM INT].each do |signal|
    define_method("test_sig#{signal.downcase}_to_a_busy_worker_is_its_death_not_the_callers") do
      ready, report = IO.pipe
      @fds = open_fds
      with_pool(->(x) { x == 1 ? signalled(report) : x }) do |pool|
        victim = Thread.new { Process.kill(signal, Integer(ready.gets)) }
        error = assert_raises(Heddle::Workers::Errors) { pool.map([0, 1, 2], fail_fast: false) }
        victim.join
        assert_only_error(error, 1, Heddle::Workers::WorkerDiedError,
                          /was killed by SIG#{signal} while running item 1 /)
        assert_equal "ensure ran", ready.gets.chomp
        assert_equal [0, nil, 2], error.results
        assert_equal [3], pool.map([3])
      end
    ensure
      [ready, report].each(&:close)
    end
  end

  # A worker that dies while idle had no item: the next chunk goes to its
  # replacement and every item succeeds.
  %w[TERM KILL].each do |signal|
    define_method("test_a_worker_killed_by_sig#{signal.downcase}_while_idle_fails_no_item") do
      with_pool(->(x) { x * 2 }) do |pool|
        pool.worker_pids.each { |pid| Process.kill(signal, pid) && wait_until_dead(pid) }
        assert_equal (0..9).map { |x| x * 2 }, pool.map((0..9).to_a, fail_fast: false)
      end
    end
  end

  def test_garbage_collected_pool_leaves_no_zombie
    pids = make_and_drop_pool
    Timeout.timeout(10) do
      GC.start until pids.none? { |pid| child?(pid) } || !sleep(0.05)
    end
    assert_reaped(pids)
  end

  private

  # The busy item: tells the test its pid, then waits for the signal; its
  # ensure reports back over the same pipe.
  def signalled(report)
    report.puts(Process.pid)
    sleep 30
  ensure
    report.puts("ensure ran")
  end

  # A dead worker stays a zombie until its lane reaps it; either way it no
  # longer reads its pipe.
  # Dead: a zombie whose every thread has ended. On Ruby 3.3 the main thread
  # shows "Z" while the process's other threads are still tearing down, and
  # a chunk written then is taken for one the worker died running.
  def wait_until_dead(pid)
    Timeout.timeout(10) { sleep 0.01 until dead?(pid) }
  end

  def dead?(pid)
    ProcStat.state(pid) == "Z" && Dir.children("/proc/#{pid}/task").size <= 1
  rescue SystemCallError
    true # reaped already
  end

  # Kills the worker whose pid arrives on ready.
  def kill_when_ready(ready) = Thread.new { Process.kill(:KILL, Integer(ready.gets)) }

  def unmarshalable_error
    RuntimeError.new("odd").tap { |e| e.instance_variable_set(:@io, $stdout) }
  end

  def make_and_drop_pool
    Heddle::Pool.new(worker: :process, size: 2) { |x| x }.worker_pids
  end

  def child?(pid)
    Process.waitpid(pid, Process::WNOHANG)
    true
  rescue Errno::ECHILD
    false
  end
end
