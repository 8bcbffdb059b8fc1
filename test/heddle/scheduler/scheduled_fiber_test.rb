# frozen_string_literal: true

require "test_helper"
require_relative "bounded"

# Heddle::Scheduler::ScheduledFiber beyond what the compliance cases share
# with async: bad arguments, a raise from another thread, a raise that
# meets a resume already queued, and the evaluation kept for heddle's API.
class ScheduledFiberTest < Minitest::Test
  include Bounded

  def test_raise_with_arguments_that_name_no_exception_raises_type_error_at_once
    errors = run_bounded do
      fiber = Fiber.schedule { sleep 0.01 }
      [[42], [Object.new, "message"], [IOError, "m", [], :extra]].map do |arguments|
        fiber.raise(*arguments)
      rescue TypeError, ArgumentError => e
        [e.class, fiber.alive?]
      end
    end

    assert_equal [[TypeError, true], [TypeError, true], [ArgumentError, true]], errors
  end

  def test_raise_from_another_thread_interrupts_the_fiber
    result = run_bounded do
      queue = Thread::Queue.new
      fiber = Fiber.schedule do
        queue.pop
      rescue IOError => e
        [:interrupted, e.message]
      end
      Thread.new { fiber.raise(IOError, "from a thread") }.join
      fiber.evaluation.await_result
    end

    assert_equal [:interrupted, "from a thread"], result
  end

  def test_a_raise_behind_a_queued_resume_is_not_lost
    log = []
    run_bounded do
      queue = Thread::Queue.new
      fiber = Fiber.schedule do
        log << [:popped, queue.pop]
        sleep 1
        log << :not_interrupted
      rescue IOError
        log << :interrupted
      end
      queue << :item # the fiber's resume is queued, it has not run yet
      fiber.raise(IOError)
      fiber.evaluation.await_result
    end

    assert_equal [%i[popped item], :interrupted], log
  end

  def test_the_evaluation_stays_heddles
    result = run_bounded do
      fiber = Fiber.schedule { sleep(0.001) && :value }
      [fiber.evaluation.class, fiber.await_result, fiber.alive?, fiber.backtrace]
    end

    assert_equal [Heddle::Proc::Evaluation, :value, false, nil], result
  end
end
