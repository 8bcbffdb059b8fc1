# frozen_string_literal: true

require "test_helper"

# The loop's wake-up pipe under Thread#kill. On Ruby 3.1 a kill landing inside
# IO.pipe closed the new descriptor and left an IO object that closed the same
# number again when collected, by then another loop's pipe: live loops failed
# with EBADF, EPIPE or "stream closed in another thread". Counts only.
class WakePipeTest < Minitest::Test
  def test_threads_killed_at_random_moments_leave_the_other_loops_whole
    errors = Queue.new
    stop = false
    threads = Array.new(8) { waiter(errors) { stop } }
    1500.times do
      index = rand(threads.size)
      threads[index].kill
      threads[index] = waiter(errors) { stop }
      sleep(rand * 0.0005)
    end
    stop = true
    threads.each { |thread| flunk "a thread still ran after 10 s" unless thread.join(10) }

    assert_equal [], Array.new(errors.size) { errors.pop }.uniq
  end

  def test_a_wake_up_for_a_loop_whose_thread_ended_is_dropped
    loop = Thread.new { Heddle.wait(0.001) && Heddle::EventLoop.current }.value
    Heddle::EventLoop::OpenLoops.current.reap # closes the ended thread's pipe
    assert_nil loop.deliver(Object.new, :itself, nil)
  end

  private

  # Waits in its loop again and again (each wait sleeps, and wakes through
  # the pipe when another thread's with_timeout watchdog or reaper acts).
  def waiter(errors)
    Thread.new do
      until yield
        begin
          Heddle.with_timeout(0.002) { Heddle.wait(rand * 0.001) }
        rescue Heddle::Evaluation::TimeoutError
          nil
        end
      end
    rescue StandardError => e
      errors << "#{e.class}: #{e.message}"
    end
  end
end
