# frozen_string_literal: true

require "test_helper"
require "timeout"
require_relative "bounded"

# Timeout.timeout inside Heddle.run while short procs keep starting and
# finishing: a deadline's raise waits in the run queue,
# where a proc fiber that just finished may look at it to chain into it.
class SchedulerTimeoutUnderLoadTest < Minitest::Test
  include Bounded

  TIMEOUTS = 200

  def test_many_timeouts_among_short_procs_all_raise_and_the_loop_goes_on
    result = run_bounded(60) do
      busy = true
      spinner = start_spinner { busy }
      raised = TIMEOUTS.times.count { timed_out_pop? }
      busy = false
      spinner.await_result
      [raised, Heddle.concurrently { sleep 0.001 and :after }.await_result]
    end

    assert_equal [TIMEOUTS, :after], result
  end

  # The exact turn of the crash, without load: in one round the loop queues
  # a start, then a due deadline's raise, and the started proc finishes at
  # once, so its fiber looks at the raise as the next entry to chain into.
  def test_a_deadline_queued_right_behind_a_start_is_not_chained_into
    result = run_bounded do
      log = []
      Heddle.concurrently do
        Timeout.timeout(0.001) { sleep 10 }
      rescue Timeout::Error
        log << :timed_out
      end
      Heddle.wait(0) # the proc above is now asleep under its deadline
      spin_past(0.005) # the deadline is due; no round ran
      Heddle.concurrently { log << :short } # queued first
      Heddle.wait(0) # set after the deadline's time: fires after it, behind it
      log
    end

    assert_equal %i[short timed_out], result
  end

  private

  # Keeps starting short procs (each sleeps up to 4 ms) until +busy+ says no.
  def start_spinner(&busy)
    Heddle.concurrently do
      while busy.call
        Heddle.concurrently { sleep(rand * 0.004) }
        sleep 0.0001
      end
    end
  end

  # Lets +seconds+ pass without giving the loop a turn.
  def spin_past(seconds)
    clock = Process::CLOCK_MONOTONIC
    start = Process.clock_gettime(clock)
    nil until Process.clock_gettime(clock) - start > seconds
  end

  def timed_out_pop?
    queue = Thread::Queue.new # nobody pushes
    Timeout.timeout(0.002) { queue.pop }
    false
  rescue Timeout::Error
    true
  end
end
