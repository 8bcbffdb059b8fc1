# frozen_string_literal: true

require "test_helper"
require "heddle/check"
require "timeout"

# The pool runners' dispatch: chunks taken back in any order, the lowest
# failure decided only once every chunk before it is back, and which runner
# worker: :ractor gets.
class CheckRunnersTest < Minitest::Test
  include FreshRuby

  C = Heddle::Check
  Runners = Heddle::Check::Runners
  LIMIT = 30
  IDENTITY = nil.instance_exec { Ractor.make_shareable(proc { |x| x }) }

  def options(**given) = Heddle::Check::Options.parse({ worker: :ractor, size: 2 }.merge(given))

  def test_a_later_chunk_failing_first_is_not_decided_until_the_earlier_ones_are_back
    window = Runners::Window.new
    3.times { window.open }
    window.close
    window.settle(2, [40, :late])
    assert_predicate window, :failed?
    assert_nil window.decided
    window.close
    window.settle(0, nil)
    assert_nil window.decided
    window.close
    window.settle(1, [20, :early])
    assert_equal [20, :early], window.decided
    assert_equal 0, window.in_flight
  end

  def test_chunks_come_back_in_the_order_they_finish
    window = Runners::Window.new
    first = Heddle::Promise.new
    second = Heddle::Promise.new
    window.watch(first)
    window.watch(second)
    second.fulfill([nil, 0.001])
    number, promise = Timeout.timeout(LIMIT) { window.take(nil) }
    assert_equal 1, number
    assert_same second, promise
    assert_equal 1, window.in_flight
  end

  def test_take_gives_up_at_the_deadline
    window = Runners::Window.new
    window.watch(Heddle::Promise.new)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 0.05
    assert_raises(Heddle::Check::TimeoutError) { Timeout.timeout(LIMIT) { window.take(deadline) } }
  end

  def test_ractor_checks_run_their_own_ractors_unless_a_timeout_is_asked
    prop = C.property(C.nat) { |n| n >= 0 }
    runner = Runners.for(prop, options)
    assert_instance_of Runners::Ractors, runner
    assert_instance_of Runners::Pool, Runners.for(prop, options(timeout: 5)).tap(&:close)
  ensure
    runner&.close
  end

  def test_one_ractor_check_at_a_time_runs_its_own_ractors
    prop = C.property(C.nat) { |n| n >= 0 }
    first = Runners.for(prop, options)
    assert_instance_of Runners::Ractors, first
    second = Runners.for(prop, options)
    assert_instance_of Runners::Pool, second, "a check in another thread meanwhile must not Ractor.select too"
    first.close
    second.close # its ractor pool's collector would send the next check to a pool too
    third = Runners.for(prop, options)
    assert_instance_of Runners::Ractors, third
  ensure
    [first, second, third].compact.each(&:close)
  end

  def test_a_block_that_cannot_be_isolated_leaves_the_next_check_its_ractors
    limit = 5
    assert_raises(Heddle::Check::NotIsolatableError) { Runners.for(C.property(C.nat) { |n| n < limit }, options) }
    runner = Runners.for(C.property(C.nat) { |n| n >= 0 }, options)
    assert_instance_of Runners::Ractors, runner
  ensure
    runner&.close
  end

  def test_a_ractor_check_beside_a_running_ractor_pool_uses_the_pool_runner
    pool = Heddle::Pool.new(worker: :ractor, size: 1, &IDENTITY)
    assert_equal 1, Timeout.timeout(LIMIT) { pool.map([1]) }.first
    prop = C.property(C.nat) { |n| n >= 0 }
    runner = Runners.for(prop, options)
    assert_instance_of Runners::Pool, runner
    assert_predicate Timeout.timeout(LIMIT) { C.check(prop, worker: :ractor, size: 2, seed: 1) }, :passed?
  ensure
    runner&.close
    pool&.shutdown
  end

  def test_the_lowest_failing_index_wins_when_many_chunks_fail
    prop = C.property(C.integer(min: 0, max: 1000)) { |n| n < 300 }
    expected = C.check(prop, seed: 9, max_shrinks: 0)
    result = Timeout.timeout(LIMIT) { C.check(prop, seed: 9, max_shrinks: 0, worker: :ractor, size: 2) }
    assert_equal [expected.runs, expected.original], [result.runs, result.original]
  end

  # Results reach the main ractor's inbox: the driver counts only its own
  # call's, and drops those of chunks it no longer waits for or of earlier checks.
  def test_a_check_counts_only_its_own_results
    runner = Runners.for(C.property(C.nat) { |n| n != 3 }, options)
    tag = Runners::Ractors::TAG
    bell = Heddle::Workers::Ractors::Doorbell # the driver takes messages that rang it
    bell.post([tag, runner.object_id, 999, [[0, :stale], nil]], :checks)
    bell.post([tag, runner.object_id + 1, 0, [[0, :other], nil]], :checks)
    assert_equal 3, Timeout.timeout(LIMIT) { runner.first_failure(Array.new(8) { |i| [i, i] }, nil) }[0]
  ensure
    runner&.close
  end

  def test_a_worker_ending_by_an_error_of_its_own_is_a_harness_error
    runner = Runners.for(C.property(C.nat) { |_| raise NoMemoryError, "stub" }, options)
    assert_instance_of Runners::Ractors, runner
    error = assert_raises(Heddle::Check::HarnessError) { Timeout.timeout(LIMIT) { runner.first_failure([[0, 1]], nil) } }
    assert_match(/NoMemoryError: stub/, error.message)
  ensure
    runner&.close
  end

  def test_a_ractor_check_starts_one_ractor_per_worker_and_they_end_after_it
    prop = C.property(C.integer(min: 0, max: 1000)) { |n| n < 300 }
    runner = Runners.for(prop, options)
    workers = runner.instance_variable_get(:@outstanding).keys
    assert_equal 2, workers.size
    assert_predicate Timeout.timeout(LIMIT) { runner.first_failure([[0, 1], [1, 400]], nil) }, :itself
    runner.close
    # Ractor#inspect is the only place Ruby 3.1 shows whether a ractor ended.
    Timeout.timeout(LIMIT) { sleep 0.01 until workers.all? { |w| w.inspect.include?("terminated") } }
  ensure
    runner&.close
  end

  # A failure leaves later chunks out; whether their worker is replaced or
  # their results come back during the next call, they must not count for it.
  def test_results_of_chunks_behind_a_failure_do_not_count_in_the_next_call
    runner = Runners.for(C.property(C.nat) { |n| n != 0 }, options)
    assert_equal 0, first_failure(runner, 0)[0]
    assert_equal 2, runner.instance_variable_get(:@outstanding).size, "a worker let go is replaced"
    assert_nil first_failure(runner, 1)
    assert_equal 5, first_failure(runner, -5)[0]
  ensure
    runner&.close
  end

  # 40 cases whose values are their index plus shift.
  def first_failure(runner, shift)
    Timeout.timeout(LIMIT) { runner.first_failure(Array.new(40) { |i| [i, i + shift] }, nil) }
  end

  def test_a_value_a_ractor_cannot_take_is_a_harness_error
    prop = C.property(C.constant(proc { 1 })) { |_| true }
    assert_raises(Heddle::Workers::UnmarshalableError) do
      Timeout.timeout(LIMIT) { C.check(prop, seed: 1, worker: :ractor, size: 2) }
    end
  end

  # A property that ends its ractor's thread ends the worker: the check
  # raises a HarnessError saying so (before, Ractor::ClosedError, a
  # StopIteration, ended first_failure's loop and the check passed), and the
  # next check runs. In a fresh ruby: the ractor ends mid-check.
  def test_thread_exit_in_a_ractor_property_is_a_harness_error
    result = in_fresh_ruby(<<~RUBY, prelude: "require 'heddle'\nrequire 'heddle/check'\nWarning[:experimental] = false")
      C = Heddle::Check
      ends = Ractor.make_shareable(nil.instance_exec { proc { |n| n > 2 ? Thread.exit : n } })
      error = begin
        C.check(C.property(C.integer(min: 0, max: 100), &ends), seed: 5, size: 2, worker: :ractor)
      rescue Heddle::Check::HarnessError => e
        e.message[/Thread.exit or Thread#kill in the property/]
      end
      holds = Ractor.make_shareable(nil.instance_exec { proc { |n| n >= 0 } })
      [error, C.check(C.property(C.nat, &holds), seed: 1, size: 2, worker: :ractor, runs: 20).passed?]
    RUBY
    assert_equal ["Thread.exit or Thread#kill in the property", true], result
  end
end
