# frozen_string_literal: true

require "English"
require "test_helper"
require_relative "../scheduler/bounded"

# Heddle::Group: spawn, wait for all, stop all with their ensure
# blocks run, the first error raised once.
class SyncGroupTest < Minitest::Test
  include Bounded

  def test_wait_returns_the_results_in_spawn_order
    results = run_bounded do
      group = Heddle::Group.new
      [0.003, 0.001, 0.002].each_with_index { |pause, i| group.spawn(i) { |n| sleep(pause) && n } }
      [group.wait, group.pending]
    end

    assert_equal [[0, 1, 2], 0], results
  end

  def test_outside_heddle_run_with_heddles_waits
    results = bounded do
      group = Heddle::Group.new
      3.times { |i| group.spawn { Heddle.wait(0.001 * i) && i } }
      group.wait
    end

    assert_equal [0, 1, 2], results
  end

  def test_limit_runs_at_most_that_many_blocks_at_once
    running = []
    most = run_bounded do
      group = Heddle::Group.new(limit: 2)
      6.times do
        group.spawn do
          running << :in
          most_now = running.size
          sleep 0.001
          running.pop && most_now
        end
      end
      group.wait.max
    end

    assert_equal 2, most
  end

  def test_the_first_error_stops_the_others_and_is_raised_once
    log = []
    outcome = run_bounded do
      group = Heddle::Group.new
      group.spawn do
        sleep 0.001
        raise KeyError, "first"
      end
      group.spawn do
        sleep 5
      ensure
        log << :ensure_ran
      end
      group.spawn do
        sleep 0.002
        raise ArgumentError, "second"
      end
      error = assert_raises(KeyError) { group.wait }
      [error.message, group.pending, group.wait]
    end

    assert_equal [["first", 0, []], [:ensure_ran]], [outcome, log]
  end

  def test_a_failed_proc_is_not_logged_as_a_lost_error
    _out, err = capture_io do
      run_bounded do
        Heddle::Group.new.tap do |g|
          g.spawn do
            raise "reported once"
          end
        end.wait
      end
    rescue StandardError
      nil
    end

    assert_equal "", err
  end

  def test_stop_unwinds_every_unfinished_proc
    log = []
    outcome = run_bounded do
      group = Heddle::Group.new
      done = group.spawn { :done }
      Heddle.wait 0
      3.times do |i|
        group.spawn do
          sleep 5
        ensure
          log << i
        end
      end
      Heddle.wait 0
      stopped = group.stop
      [stopped, done.await_result, group.pending, group.wait]
    end

    assert_equal [[3, :done, 0, []], [0, 1, 2]], [outcome, log.sort]
  end

  def test_wait_within_raises_a_timeout_and_the_procs_go_on
    outcome = run_bounded do
      group = Heddle::Group.new
      group.spawn { sleep(0.05) && :late }
      error = assert_raises(Heddle::Evaluation::TimeoutError) { group.wait(within: 0.001) }
      [error.class, group.wait]
    end

    assert_equal [Heddle::Evaluation::TimeoutError, [:late]], outcome
  end

  # A proc stopped before its block started never ran the block's
  # bookkeeping: pending stayed up for good, and a later wait never returned.
  def test_stop_before_the_procs_start_leaves_nothing_pending
    outcome = run_bounded do
      group = Heddle::Group.new
      3.times { |i| group.spawn(i) { |x| sleep(0.01) && x } }
      stopped = group.stop
      pending = group.pending
      group.spawn(9) { |x| x }
      [stopped, pending, group.wait(within: 2)]
    end

    assert_equal [3, 0, [9]], outcome
  end

  def test_a_proc_concluded_from_outside_before_it_starts_counts_as_done
    outcome = run_bounded do
      group = Heddle::Group.new
      evaluation = group.spawn { :never }
      evaluation.conclude_to(:cancelled)
      [group.pending, group.wait(within: 2)]
    end

    assert_equal [0, [:cancelled]], outcome
  end

  def test_wait_within_is_checked_at_the_door
    group = Heddle::Group.new
    refusals = [[-1, ArgumentError], [Float::NAN, ArgumentError], [1e308, ArgumentError], ["1", TypeError],
                [BasicObject.new, TypeError]].map do |within, klass|
      assert_raises(klass) { group.wait(within: within) }.message.include?("within:")
    end

    assert_equal [true] * 5, refusals
  end

  def test_misuse_is_refused_at_the_door
    group = Heddle::Group.new
    no_block = assert_raises(ArgumentError) { group.spawn(1) }
    other_thread = Thread.new { group.spawn { :x } rescue $ERROR_INFO }.value # rubocop:disable Style/RescueModifier

    assert_match(/needs a block/, no_block.message)
    assert_kind_of Heddle::Error, other_thread
    assert_match(/belongs to/, other_thread.message)
    assert_raises(ArgumentError) { Heddle::Group.new(limit: 0) }
    assert_equal 0, group.pending
  end
end
