# frozen_string_literal: true

require "test_helper"
require_relative "../../scheduler/bounded"
require "support/quiet_proc_errors"

# A cancelled proc's ensure blocks may wait: the concluded evaluation keeps
# its result, the unwinding waits on a fresh one (PooledFiber#cancel_job). Before,
# the wait re-entered the concluded evaluation, whose slot holds the result:
# its resume raised NoMethodError in the loop.
class ProcWorkerTest < Minitest::Test
  include Bounded
  include QuietProcErrors

  def test_a_cancelled_procs_ensure_can_wait
    log = []
    result = bounded do
      evaluation = Heddle.concurrently do
        Heddle.await_resume!
      ensure
        log << :ensure_started
        Heddle.wait 0.001
        log << :ensure_done
      end
      Heddle.wait 0
      evaluation.conclude_to(:cancelled)
      Heddle.wait 0.05 until log.size == 2
      evaluation.await_result
    end

    assert_equal [:cancelled, %i[ensure_started ensure_done]], [result, log]
  end

  def test_a_cancelled_procs_ensure_can_use_the_scheduler
    reader, writer = IO.pipe
    result = run_bounded do
      evaluation = Heddle.concurrently do
        sleep 30
      ensure
        writer.puts "ensure ran"
        writer.close
      end
      sleep 0
      evaluation.conclude_to(:cancelled)
      [evaluation.await_result, reader.read]
    end

    assert_equal [:cancelled, "ensure ran\n"], result
  ensure
    reader&.close
  end

  # A pooled fiber leaves and re-enters its job loop every JOBS_PER_ENTRY
  # jobs (PooledFiber#run_jobs): jobs on both sides of each boundary run in
  # order, in the same fiber, and an error on the boundary job reaches its
  # caller without ending the fiber.
  def test_a_pooled_fiber_serves_jobs_across_its_loop_entries
    per_entry = Heddle::Proc::PooledFiber::JOBS_PER_ENTRY
    jobs = (2 * per_entry) + 3
    fibers = []
    failing = per_entry
    results = bounded do
      worker = Heddle.concurrent_proc do |i|
        fibers << Fiber.current
        Heddle.wait 0
        raise ArgumentError, "job #{i}" if i == failing

        i * 2
      end
      Array.new(jobs) do |i|
        worker.call(i)
      rescue ArgumentError => e
        e.message
      end
    end

    expected = Array.new(jobs) { |i| i == failing ? "job #{i}" : i * 2 }

    assert_equal expected, results
    assert_equal [jobs, 1], [fibers.size, fibers.uniq.size]
  end
end
