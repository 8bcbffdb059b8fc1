# frozen_string_literal: true

require "test_helper"

# Heddle::Scheduler::Deadline under interrupts: wherever a Thread#raise,
# Thread#kill or the watch's own raise lands, the deadline is disarmed and its
# internal Expired never reaches the caller. Classes and counts only.
class DeadlineTest < Minitest::Test
  include FreshRuby

  class Boom < StandardError; end

  TIMEOUT = Heddle::Evaluation::TimeoutError

  # Ruby 3.1 crashed (SEGV) in Thread.pending_interrupt?(Expired), which the
  # deadline asked when its watch had raised just as the block ended.
  def test_many_threads_of_short_timeouts_do_not_crash_ruby
    outcome = in_fresh_ruby(<<~RUBY, prelude: 'require "heddle"', limit: 120)
      escaped = Queue.new
      threads = Array.new(8) do
        Thread.new do
          800.times do
            Heddle.with_timeout(rand * 0.001) { sleep(rand * 0.001) }
          rescue Heddle::Evaluation::TimeoutError
            nil
          rescue Exception => e # anything else escaped
            escaped << e.class.name
          end
        end
      end
      threads.each(&:join)
      [:finished, Array.new(escaped.size) { escaped.pop }.uniq]
    RUBY
    assert_equal [:finished, []], outcome
  end

  # An interrupt between arming and running left the timer armed: it fired
  # in a later wait of the thread and raised Expired there.
  def test_an_interrupt_before_the_block_leaves_no_timer_behind
    outcome = Thread.new do
      Thread.current[ArmHook::KEY] = true # the next arm ends with a Thread#raise
      raised = begin
        Heddle.with_timeout(0.005) { :never }
      rescue Boom => e
        e.class
      end
      [raised, Heddle.wait(0.03)]
    end
    assert_equal [Boom, true], joined(outcome)
  end

  # Raises Boom at the end of Deadline#arm, once, in a thread that asks for it.
  module ArmHook
    KEY = :deadline_test_arm_hook

    def arm(...)
      super.tap { Thread.current.raise(Boom) if Thread.current[KEY] && !(Thread.current[KEY] = nil) }
    end
  end
  Heddle::Scheduler::Deadline.prepend(ArmHook)

  # The caller's own handle_interrupt mask used to hold the watch's raise
  # until the mask ended, after with_timeout had returned: Expired escaped.
  def test_a_callers_interrupt_mask_does_not_let_expired_escape
    outcome = Thread.new do
      Thread.handle_interrupt(Exception => :never) do
        Heddle.with_timeout(0.01) { sleep 0.2 }
        :not_bounded
      rescue TIMEOUT => e
        e.class
      end
    rescue Exception => e # rubocop:disable Lint/RescueException -- the escape this test is about
      e.class
    end
    assert_equal TIMEOUT, joined(outcome)
  end

  # The watch's raise can land just after the block returned: it still
  # becomes the deadline's error inside with_timeout, never Expired outside.
  def test_a_raise_landing_as_the_block_ends_becomes_the_timeout_or_nothing
    outcomes = Array.new(4) do
      Thread.new do
        Array.new(200) do
          Heddle.with_timeout(0.0005) { sleep 0.0005 }
          :done
        rescue TIMEOUT
          :timed_out
        rescue Exception => e # rubocop:disable Lint/RescueException -- the escape this test is about
          e.class
        end.uniq
      end
    end
    assert_equal [], outcomes.flat_map { |thread| joined(thread) }.uniq - %i[done timed_out]
  end

  # The watchdog starts inside with_timeout's masked bookkeeping, and a new
  # thread inherits its maker's masks: it must still take a Thread#raise.
  def test_the_watchdog_thread_takes_interrupts
    release = Thread::Queue.new
    timed = Thread.new { Heddle.with_timeout(30) { release.pop } } # keeps a watch, so the watchdog stays
    Thread.pass until (watchdog = Thread.list.find { |thread| thread.name == "heddle with_timeout watchdog" })
    watchdog.report_on_exception = false # the raise is the test's, not a failure to print
    watchdog.raise(Boom)
    assert_raises(Boom) { watchdog.join(10) || flunk("the watchdog did not take the raise") }
  ensure
    release << :done
    timed&.join(10)
  end

  def test_a_lambda_block_runs_as_a_block
    assert_equal :ran, Heddle.with_timeout(1, &-> { :ran })
  end

  private

  def joined(thread)
    flunk "the thread still ran after 10 s" unless thread.join(10)
    thread.value
  end
end
