# frozen_string_literal: true

require_relative "peers"

# kernel_sleep(duration = nil), block(blocker, timeout = nil) and
# unblock(blocker, fiber): sleep, Mutex, Queue, SizedQueue,
# ConditionVariable and Thread#join suspend only their fiber, and a wake-up
# may come from another thread.
class ComplianceSleepAndBlockTest < Minitest::Test
  include CompliancePeers

  compliance "sleep_suspends_only_its_fiber" do
    log = []
    under_peer do
      Fiber.schedule do
        sleep 0.02
        log << :slept
      end
      Fiber.schedule { log << :other }
      log << :main
    end

    assert_equal %i[other main slept], log
  end

  compliance "sleep_zero_lets_the_other_fibers_run" do
    log = []
    under_peer do
      Fiber.schedule do
        log << :a1
        sleep 0
        log << :a2
      end
      Fiber.schedule do
        log << :b1
        sleep 0
        log << :b2
      end
    end

    assert_equal %i[a1 b1 a2 b2], log
  end

  # Ruby counts whole clock seconds (time(0) after minus before), so a
  # millisecond's sleep that crosses a second boundary returns 1. time(0)
  # reads a coarse clock that can lag Time.now by a tick: it can still show
  # the last second when Time.now shows the next, so Ruby may count a
  # boundary Time.now saw before the sleep (3.3 CI under async: 1 with none
  # crossed by Time.now).
  compliance "sleep_returns_the_whole_seconds_slept" do
    before = Time.now.to_i
    slept = under_peer { sleep 0.001 }
    crossed = Time.now.to_i - before

    assert_kind_of Integer, slept
    assert_includes 0..(crossed + 1), slept
  end

  # Mutual exclusion, each waiter served once; Ruby promises no order of
  # hand-over (async on 3.3 under load served the third before the second).
  compliance "mutex_contention_excludes_and_serves_every_waiter" do
    log = []
    under_peer do
      mutex = Mutex.new
      3.times do |index|
        Fiber.schedule do
          mutex.synchronize do
            log << [:in, index]
            sleep 0.001
            log << [:out, index]
          end
        end
      end
    end

    log.each_slice(2) { |entered, left| assert_equal [[:in, entered.last], [:out, entered.last]], [entered, left] }
    assert_equal [0, 1, 2], log.map(&:last).uniq.sort
  end

  compliance "queue_pop_waits_for_a_push_from_another_fiber" do
    log = []
    under_peer do
      queue = Thread::Queue.new
      Fiber.schedule { log << [:popped, queue.pop] }
      log << :pushing
      queue << :item
    end

    assert_equal [:pushing, %i[popped item]], log
  end

  compliance "queue_pop_woken_from_another_thread" do
    result = under_peer do
      queue = Thread::Queue.new
      Thread.new do
        sleep 0.01
        queue << :from_a_thread
      end
      queue.pop
    end

    assert_equal :from_a_thread, result
  end

  compliance "queue_pop_with_a_timeout_returns_nil" do
    timeout_keyword = Thread::Queue.instance_method(:pop).parameters.include?(%i[key timeout])
    skip "Ruby #{RUBY_VERSION}'s Queue#pop takes no timeout" unless timeout_keyword
    ticks = 0
    result = under_peer do
      Fiber.schedule { 2.times { (ticks += 1) && sleep(0.001) } }
      Thread::Queue.new.pop(timeout: 0.02)
    end

    assert_nil result
    assert_equal 2, ticks
  end

  compliance "sized_queue_push_waits_for_room" do
    log = []
    under_peer do
      queue = Thread::SizedQueue.new(1)
      queue << 1
      Fiber.schedule do
        queue << 2
        log << :pushed
      end
      log << [:popped, queue.pop]
      log << [:popped, queue.pop]
    end

    assert_equal [[:popped, 1], :pushed, [:popped, 2]], log
  end

  compliance "condition_variable_wait_and_signal" do
    log = []
    under_peer do
      mutex = Mutex.new
      condition = ConditionVariable.new
      ready = false
      Fiber.schedule do
        mutex.synchronize do
          condition.wait(mutex) until ready
          log << :woken
        end
      end
      log << :signalling
      mutex.synchronize do
        ready = true
        condition.signal
      end
    end

    assert_equal %i[signalling woken], log
  end

  compliance "condition_variable_wait_with_a_timeout" do
    result = under_peer do
      mutex = Mutex.new
      mutex.synchronize { ConditionVariable.new.wait(mutex, 0.01) }
      :returned
    end

    assert_equal :returned, result
  end

  compliance "thread_join_and_value_suspend_only_the_fiber" do
    log = []
    result = under_peer do
      thread = Thread.new do
        sleep 0.02
        :thread_value
      end
      Fiber.schedule { log << :other }
      log << :joining
      thread.value
    end

    assert_equal :thread_value, result
    assert_equal %i[other joining], log
  end

  # close: at Fiber.set_scheduler(nil) (or the thread's end) the scheduler
  # runs every scheduled fiber to its end.
  compliance "close_runs_the_scheduled_fibers_to_their_end" do
    log = []
    bounded do
      Fiber.set_scheduler(peer_scheduler)
      Fiber.schedule do
        sleep 0.001
        log << :a
      end
      Fiber.schedule { log << :b }
      Fiber.set_scheduler(nil)
      log << :closed
    end

    assert_equal %i[b a closed], log
  end

  compliance "close_at_the_end_of_the_thread" do
    log = []
    bounded do
      Fiber.set_scheduler(peer_scheduler)
      Fiber.schedule do
        sleep 0.001
        log << :a
      end
    end

    assert_equal %i[a], log
  end
end
