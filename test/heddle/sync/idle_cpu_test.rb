# frozen_string_literal: true

require "test_helper"

# The idle-CPU family, sync's part: Heddle::Semaphore#acquire on a full
# semaphore and Heddle::Group#wait on a proc that waits spend at most
# CpuMeter::IDLE_SHARE of a core until another thread lets them go, on each
# selector. (Queue, Mutex and ConditionVariable inside Heddle.run are the
# scheduler's part: test/heddle/scheduler/idle_cpu_test.rb.)
module SyncIdleCpu
  include OnIOWatchBackend
  include IdleCpu

  def test_semaphore_acquire_in_heddle_run
    share, value = on_backend do
      semaphore = Heddle::Semaphore.new(1)
      semaphore.acquire
      CpuMeter.share_while_waiting(-> { semaphore.release }) { Heddle.run { semaphore.acquire { :acquired } } }
    end
    assert_equal :acquired, value
    assert_idle share, "Semaphore#acquire in Heddle.run"
  end

  def test_semaphore_acquire_in_a_thread
    share, value = on_backend do
      semaphore = Heddle::Semaphore.new(1)
      semaphore.acquire
      CpuMeter.share_while_waiting(-> { semaphore.release }) { semaphore.acquire { :acquired } }
    end
    assert_equal :acquired, value
    assert_idle share, "Semaphore#acquire in a thread"
  end

  def test_group_wait_in_heddle_run
    share, value = on_backend do
      queue = Thread::Queue.new
      CpuMeter.share_while_waiting(-> { queue << :done }) do
        Heddle.run do
          group = Heddle::Group.new
          group.spawn { queue.pop }
          group.wait
        end
      end
    end
    assert_equal [:done], value
    assert_idle share, "Group#wait in Heddle.run"
  end

  def test_group_wait_outside_heddle_run
    share, value = on_backend do
      promise = Heddle::Promise.new
      CpuMeter.share_while_waiting(-> { promise.fulfill(:done) }) do
        group = Heddle::Group.new
        group.spawn { promise.value! }
        group.wait
      end
    end
    assert_equal [:done], value
    assert_idle share, "Group#wait outside Heddle.run"
  end
end

class SyncIdleCpuSelectTest < Minitest::Test
  include SyncIdleCpu

  def backend = Heddle::EventLoop::Selectors::SelectWatch
end

class SyncIdleCpuNIOTest < Minitest::Test
  include SyncIdleCpu

  def backend = Heddle::EventLoop::Selectors::NIOWatch

  def setup
    skip "nio4r does not load: #{backend.load_error}" unless backend.available?
  end
end

class SyncIdleCpuEpollTest < Minitest::Test
  include SyncIdleCpu

  def backend = Heddle::EventLoop::Selectors::EpollWatch

  def setup
    skip "epoll in C is not available: #{backend.load_error}" unless backend.available?
  end
end
