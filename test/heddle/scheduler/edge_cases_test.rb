# frozen_string_literal: true

require "test_helper"
require "timeout"
require_relative "bounded"

# Less common paths through the hooks: waits with timeouts, waits across
# threads, nested timeouts, cancellation of scheduled fibers.
class SchedulerEdgeCasesTest < Minitest::Test
  include Bounded

  def test_sized_queue_push_waits_for_room
    log = []
    run_bounded do
      queue = SizedQueue.new(1)
      producer = Heddle.concurrently do
        3.times do |i|
          queue.push(i)
          log << [:pushed, i]
        end
      end
      Heddle.concurrently { 3.times { log << [:popped, queue.pop] } }
      producer.await_result
    end

    assert_equal [[:pushed, 0], [:popped, 0], [:pushed, 1], [:popped, 1], [:pushed, 2], [:popped, 2]], log
  end

  def test_mutex_held_by_another_thread
    log = []
    run_bounded do
      mutex = Mutex.new
      locked = Queue.new
      release = Queue.new
      holder = hold_in_a_thread(mutex, locked, release)
      locked.pop
      waiter = Heddle.concurrently { mutex.synchronize { log << :got } }
      Heddle.concurrently do
        log << :other
        release << true
      end
      waiter.await_result
      holder.join
    end

    assert_equal %i[other got], log
  end

  def test_process_wait_with_wnohang_does_not_wait
    result = run_bounded do
      reader, writer = IO.pipe
      pid = Process.spawn("head", "-c", "1", in: reader, out: File::NULL)
      reader.close
      early = Process.wait(pid, Process::WNOHANG)
      writer.write("x")
      writer.close
      [early, Process.wait2(pid).last.success?]
    end

    assert_equal [nil, true], result
  end

  def test_nested_timeouts_fire_the_inner_one_first
    result = run_bounded do
      Timeout.timeout(5, IndexError, "outer") do
        Timeout.timeout(0.01, KeyError, "inner") { sleep 5 }
      rescue KeyError => e
        [:inner_fired, e.message]
      end
    end

    assert_equal [:inner_fired, "inner"], result
  end

  def test_outer_timeout_fires_through_an_inner_one
    result = run_bounded do
      Timeout.timeout(0.01, IndexError, "outer") do
        Timeout.timeout(5, KeyError, "inner") { sleep 5 }
      end
    rescue IndexError => e
      e.message
    end

    assert_equal "outer", result
  end

  def test_concluding_a_proc_cancels_the_fibers_it_scheduled
    log = []
    run_bounded do
      parent = Heddle.concurrently do
        Fiber.schedule do
          sleep 5
          log << :not_cancelled
        ensure
          log << :child_ensure
        end
        sleep 5
      end
      Heddle.wait 0.01
      parent.conclude_to(:stopped)
    end

    assert_equal [:child_ensure], log
  end

  def test_an_error_in_a_scheduled_fiber_concludes_it_and_others_go_on
    output = StringIO.new
    Heddle::Proc.error_log_output = output
    result = run_bounded do
      failing = Fiber.schedule do
        sleep 0
        raise ArgumentError, "bad"
      end
      other = Fiber.schedule do
        sleep 0.001 # returns the seconds slept, rounded: 1 after a stall of half a second
        :went_on
      end
      [failing.await_result(&:class), other.await_result]
    end

    assert_equal [ArgumentError, :went_on], result
    assert_match(/bad/, output.string)
  ensure
    Heddle::Proc.error_log_output = Heddle::STDERR_LOG
  end

  private

  def hold_in_a_thread(mutex, locked, release)
    Thread.new do
      mutex.synchronize do
        locked << true
        release.pop
      end
    end
  end
end
