# frozen_string_literal: true

require "test_helper"
require "heddle/check"
require "timeout"
require "tmpdir"

# The same checks on every worker backend: identical results (lowest-index
# failure wins), and errors of the machinery raised as themselves.
class CheckBackendsTest < Minitest::Test
  C = Heddle::Check
  LIMIT = 30

  # The backends that run in this process's machine (not :redis, which needs a server).
  def self.available = Heddle::Workers::Backends::LIST.reject(&:remote?).map(&:name)

  def check(prop, **options) = Timeout.timeout(LIMIT) { C.check(prop, size: 2, **options) }

  def outcome(result) = [result.counterexample, result.original, result.runs, result.shrinks, result.error&.message]

  def test_every_backend_finds_the_same_minimal_counterexample
    prop = C.property(C.array(C.integer)) { |a| raise "sum #{a.sum}" if a.sum > 100 }
    expected = outcome(C.check(prop, seed: 21))
    assert_equal [101], expected.first
    self.class.available.each do |worker|
      assert_equal expected, outcome(check(prop, seed: 21, worker: worker)), "worker #{worker}"
    end
  end

  def test_every_backend_runs_every_case_of_a_passing_property
    prop = C.property(C.integer, C.ascii_string) { |n, s| s.size + n.abs >= 0 }
    self.class.available.each do |worker|
      result = check(prop, seed: 3, runs: 150, worker: worker)
      assert_predicate result, :passed?, "worker #{worker}"
      assert_equal 150, result.runs
    end
  end

  def test_in_process_workers_cancel_outstanding_runs_after_a_failure
    calls = Queue.new
    prop = C.property(C.nat) do |n|
      calls << n
      raise "first" if calls.size == 1

      sleep 0.005
    end
    # One worker: the failing first chunk runs first; the second (50 runs) is queued behind it.
    result = Timeout.timeout(LIMIT) { C.check(prop, seed: 1, worker: :thread, size: 1, max_shrinks: 0) }
    assert_equal 1, result.runs
    assert_operator calls.size, :<, 10, "the queued chunk should stop at once, not run its 50 cases"
  end

  # A process pool forks lazily: a check whose chunks never wait for a
  # second worker forks one. The opening probe went out as one slice per
  # worker, and the second slice, waiting behind the first worker's fork,
  # forked a second process for a property one clears in a millisecond.
  def test_a_cheap_failing_check_on_processes_forks_one_worker
    Dir.mktmpdir do |dir|
      path = File.join(dir, "pids")
      prop = C.property(C.integer) do |x|
        @pid_noted ||= File.write(path, "#{Process.pid}\n", mode: "a") # once per worker process
        raise "#{x} > 100" if x > 100
      end
      result = check(prop, seed: 7, worker: :process)
      assert_equal 101, result.counterexample
      assert_equal 1, File.readlines(path).uniq.size, "worker processes forked"
    end
  end

  def test_timeout_stops_a_hanging_property_on_pools
    prop = C.property(C.nat) { |_| sleep 10 }
    (self.class.available & %i[thread process]).each do |worker|
      assert_raises(Heddle::Check::TimeoutError, "worker #{worker}") do
        Timeout.timeout(5) { C.check(prop, worker: worker, size: 2, timeout: 0.3, seed: 1) }
      end
    end
  end

  def test_a_value_that_cannot_be_marshaled_is_a_harness_error_on_processes
    skip "process workers not available" unless self.class.available.include?(:process)

    prop = C.property(C.constant(proc { 1 })) { |_| true }
    assert_raises(Heddle::Workers::Error) { check(prop, seed: 1, worker: :process) }
  end

  def test_an_error_that_cannot_be_marshaled_comes_back_as_a_remote_error
    skip "process workers not available" unless self.class.available.include?(:process)

    prop = C.property(C.nat) { |n| n < 5 || raise(KeyError.new("no key", receiver: proc {}, key: n)) }
    result = check(prop, seed: 1, worker: :process)
    assert_equal 5, result.counterexample
    assert_includes result.error.inspect, "KeyError"
  end

  def test_a_dead_worker_is_a_harness_error_not_a_failure
    skip "process workers not available" unless self.class.available.include?(:process)

    prop = C.property(C.nat) { |n| n > 3 ? Process.exit!(1) : true }
    assert_raises(Heddle::Workers::Error) { check(prop, seed: 1, worker: :process) }
  end

  def test_a_block_reading_outer_variables_cannot_run_in_ractors
    skip "ractor workers not available" unless self.class.available.include?(:ractor)

    limit = 5
    prop = C.property(C.nat) { |n| n < limit }
    error = assert_raises(Heddle::Check::NotIsolatableError) { check(prop, seed: 1, worker: :ractor) }
    assert_includes error.message, "limit"
  end
end
