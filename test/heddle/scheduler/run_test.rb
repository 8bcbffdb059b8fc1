# frozen_string_literal: true

require "test_helper"
require_relative "bounded"

class HeddleRunTest < Minitest::Test
  include Bounded

  def test_returns_the_block_value_and_runs_it_in_a_non_blocking_heddle_fiber
    value = run_bounded { [Fiber.current.blocking?, Fiber.scheduler.class, Heddle::Evaluation.current.class, :value] }

    assert_equal [false, Heddle::Scheduler, Heddle::Proc::Evaluation, :value], value
  end

  def test_reraises_the_block_error_without_logging_it
    output = StringIO.new
    Heddle::Proc.error_log_output = output
    error = assert_raises(KeyError) { run_bounded { raise KeyError, "missing" } }

    assert_equal "missing", error.message
    assert_empty output.string
  ensure
    Heddle::Proc.error_log_output = Heddle::STDERR_LOG
  end

  def test_restores_the_thread_without_a_scheduler
    states = bounded do
      before = Fiber.scheduler
      Heddle.run { sleep 0 }
      after = Fiber.scheduler
      [before, after]
    end

    assert_equal [nil, nil], states
  end

  def test_restores_the_thread_after_an_error_too
    after = bounded do
      Heddle.run { raise ArgumentError } rescue nil # rubocop:disable Style/RescueModifier
      Fiber.scheduler
    end

    assert_nil after
  end

  def test_nested_run_just_runs_the_block
    value = run_bounded do
      outer = Fiber.scheduler
      inner_scheduler, inner_value = Heddle.run { [Fiber.scheduler, 2] }
      [outer.equal?(inner_scheduler), inner_value]
    end

    assert_equal [true, 2], value
  end

  def test_waits_until_everything_the_block_started_is_done
    log = []
    run_bounded do
      Heddle.concurrently do
        sleep 0.02
        log << :proc
      end
      Fiber.schedule do
        sleep 0.01
        log << :fiber
      end
      Heddle.concurrent_proc do
        sleep 0.005
        log << :forgotten
      end.call_and_forget
      log << :block
    end

    # all three ended before Heddle.run returned (in an order the sleeps
    # only suggest: under load a queued start can begin its sleep late)
    assert_equal [:block, %i[fiber forgotten proc]], [log.first, log.drop(1).sort]
  end

  def test_concurrent_procs_started_inside_get_the_scheduler
    log = []
    run_bounded do
      sleeper = Heddle.concurrently do
        log << :sleeping
        sleep 0.01
        log << :woke
      end
      Heddle.concurrently { log << :other }
      sleeper.await_result
    end

    assert_equal %i[sleeping other woke], log
  end

  def test_fiber_schedule_starts_at_once_and_returns_a_fiber_with_its_evaluation
    log = []
    scheduled = run_bounded do
      scheduled = Fiber.schedule do
        log << :started
        sleep 0
        log << :resumed
        :result
      end
      log << :after_schedule
      scheduled.evaluation.await_result
      scheduled
    end

    assert_equal %i[started after_schedule resumed], log
    assert_instance_of Heddle::Scheduler::ScheduledFiber, scheduled
    refute_predicate scheduled, :alive?
    assert_instance_of Heddle::Proc::Evaluation, scheduled.evaluation
    assert_equal :result, scheduled.evaluation.await_result
  end

  def test_refuses_to_replace_another_scheduler
    other = Class.new do
      def block(*) = nil
      def unblock(*) = nil
      def kernel_sleep(*) = nil
      def io_wait(*) = nil
      def close = nil
    end
    error = bounded do
      Fiber.set_scheduler(other.new)
      begin
        Heddle.run { :never }
      rescue Heddle::Scheduler::ConflictError => e
        e
      ensure
        Fiber.set_scheduler(nil)
      end
    end

    assert_match(/another Fiber scheduler/, error.message)
  end

  def test_an_installed_heddle_scheduler_is_kept
    kept = bounded do
      scheduler = Heddle::Scheduler.new
      Fiber.set_scheduler(scheduler)
      Heddle.run { sleep 0 }
      Fiber.scheduler.equal?(scheduler).tap { Fiber.set_scheduler(nil) }
    end

    assert kept
  end

  def test_inside_a_concurrent_proc_without_scheduler
    log = []
    value = bounded do
      Heddle.concurrent_proc do
        Heddle.run do
          Heddle.concurrently do
            sleep 0.01
            log << :child
          end
          log << :block
          Fiber.scheduler.class
        end
      end.call
    end

    assert_equal Heddle::Scheduler, value
    assert_equal %i[block child], log
  end

  def test_set_scheduler_by_hand_runs_scheduled_fibers_at_thread_end
    log = []
    bounded do
      Fiber.set_scheduler(Heddle::Scheduler.new)
      Fiber.schedule do
        sleep 0.01
        log << :b
      end
      Fiber.schedule { log << :a }
      log << :main
    end

    assert_equal %i[a main b], log
  end

  def test_close_runs_the_loop_until_done
    log = []
    bounded do
      scheduler = Heddle::Scheduler.new
      Fiber.set_scheduler(scheduler)
      Fiber.schedule do
        sleep 0.01
        log << :slept
      end
      Fiber.set_scheduler(nil)
      log << (scheduler.closed? ? :closed : :open)
    end

    assert_equal %i[slept closed], log
  end

  def test_killing_the_thread_does_not_wait_for_its_fibers
    started = Queue.new
    thread = Thread.new do
      Heddle.run do
        Fiber.schedule { Queue.new.pop }
        started << true
        sleep
      end
    end
    bounded { started.pop }
    thread.kill

    assert thread.join(Bounded::LIMIT), "Thread#kill waited for a fiber that waits for ever"
  end

  def test_fiber_schedule_inside_a_proc_runs_only_its_block_before_returning
    log = []
    run_bounded do
      Heddle.concurrently do
        Fiber.schedule { log << :scheduled }
        log << :after_schedule
      end
      Heddle.concurrently { log << :queued_next }
    end

    assert_equal %i[scheduled after_schedule queued_next], log
  end
end
