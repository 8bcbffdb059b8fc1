# frozen_string_literal: true

require "test_helper"
require "timeout"

# The idle-CPU family, the scheduler's part: plain blocking Ruby inside
# Heddle.run, held until another thread ends it, spends at most
# CpuMeter::IDLE_SHARE of a core, on each selector; the IO hooks on both
# IO paths (the C path in this process when it is built, pure Ruby in a
# fresh ruby with HEDDLE_NATIVE=0). This module: the IO waits.
module SchedulerIdleCpuIO
  include OnIOWatchBackend
  include IdleCpu

  def test_io_read_on_the_c_path
    c_path!
    share, value = on_backend { IdleWaits.read_in_run }
    assert_equal "x", value
    assert_idle share, "IO#read in Heddle.run (C path)"
  end

  def test_io_read_in_pure_ruby
    pure_ruby!
    (share, value), setting = in_fresh("IdleWaits.read_in_run", "HEDDLE_NATIVE" => "0")
    assert_equal ["x", false], [value, setting[:native]]
    assert_idle share, "IO#read in Heddle.run (pure Ruby)"
  end

  def test_io_write_to_a_full_pipe_on_the_c_path
    c_path!
    share, value = on_backend { IdleWaits.write_in_run }
    assert_equal 1, value
    assert_idle share, "IO#write in Heddle.run (C path)"
  end

  def test_io_write_to_a_full_pipe_in_pure_ruby
    pure_ruby!
    (share, value), setting = in_fresh("IdleWaits.write_in_run", "HEDDLE_NATIVE" => "0")
    assert_equal [1, false], [value, setting[:native]]
    assert_idle share, "IO#write in Heddle.run (pure Ruby)"
  end

  # accept waits through io_wait, which both paths share; it runs on both
  # all the same, as a reader of the table would expect.
  def test_tcp_accept_on_the_c_path
    c_path!
    share, value = on_backend { IdleWaits.accept_in_run }
    assert_equal "TCPSocket", value
    assert_idle share, "TCPServer#accept in Heddle.run (C path)"
  end

  def test_tcp_accept_in_pure_ruby
    pure_ruby!
    (share, value), setting = in_fresh("IdleWaits.accept_in_run", "HEDDLE_NATIVE" => "0")
    assert_equal ["TCPSocket", false], [value, setting[:native]]
    assert_idle share, "TCPServer#accept in Heddle.run (pure Ruby)"
  end

  def test_io_select
    share, value = on_backend do
      reader, writer = IO.pipe
      # IO.select itself is the wait measured (the scheduler's io_select hook on 3.3 and later)
      selected = -> { IO.select([reader])&.first&.size } # rubocop:disable Lint/IncompatibleIoSelectWithFiberScheduler
      CpuMeter.share_while_waiting(-> { writer.write("x") }) { Heddle.run(&selected) }
    ensure
      [reader, writer].each { |io| io&.close }
    end
    assert_equal 1, value
    assert_idle share, "IO.select in Heddle.run"
  end

  private

  def c_path!
    skip "ext/heddle_native is not built for this Ruby (rake compile)" unless Heddle::Scheduler::NATIVE_IO
  end

  # The epoll selector is part of the C path: HEDDLE_NATIVE=0 goes without it.
  def pure_ruby!
    skip "the epoll selector is part of the C path" if backend == Heddle::EventLoop::Selectors::EpollWatch
  end
end

# Thread::Queue, SizedQueue, Mutex and ConditionVariable inside Heddle.run.
module SchedulerIdleCpuThreadSync
  include OnIOWatchBackend
  include IdleCpu

  def test_queue_pop
    share, value = on_backend do
      queue = Thread::Queue.new
      CpuMeter.share_while_waiting(-> { queue << :popped }) { Heddle.run { queue.pop } }
    end
    assert_equal :popped, value
    assert_idle share, "Queue#pop in Heddle.run"
  end

  def test_sized_queue_push_to_a_full_queue
    share, value = on_backend do
      queue = Thread::SizedQueue.new(1)
      queue << :first
      CpuMeter.share_while_waiting(-> { queue.pop }) { Heddle.run { queue.push(:second) && queue.pop } }
    end
    assert_equal :second, value
    assert_idle share, "SizedQueue#push in Heddle.run"
  end

  def test_mutex_lock_held_by_another_thread
    share, value = on_backend do
      mutex = Thread::Mutex.new
      held = Thread::Queue.new
      unlock = Thread::Queue.new
      holder = Thread.new { mutex.synchronize { (held << true) && unlock.pop } }
      held.pop
      locked = CpuMeter.share_while_waiting(-> { unlock << true }) { Heddle.run { mutex.synchronize { :locked } } }
      holder.join(LIMIT)
      locked
    end
    assert_equal :locked, value
    assert_idle share, "Mutex#lock (held by a thread) in Heddle.run"
  end

  def test_mutex_lock_held_by_another_fiber
    share, value = on_backend do
      mutex = Thread::Mutex.new
      unlock = Thread::Queue.new
      CpuMeter.share_while_waiting(-> { unlock << true }) do
        Heddle.run do
          Fiber.schedule { mutex.synchronize { unlock.pop } }
          mutex.synchronize { :locked }
        end
      end
    end
    assert_equal :locked, value
    assert_idle share, "Mutex#lock (held by a fiber) in Heddle.run"
  end

  def test_condition_variable_wait
    share, value = on_backend do
      mutex = Thread::Mutex.new
      condition = Thread::ConditionVariable.new
      signalled = false
      signal = -> { mutex.synchronize { (signalled = true) && condition.signal } }
      CpuMeter.share_while_waiting(signal) do
        Heddle.run { mutex.synchronize { condition.wait(mutex) until signalled } || :signalled }
      end
    end
    assert_equal :signalled, value
    assert_idle share, "ConditionVariable#wait in Heddle.run"
  end
end

# sleep, Process.wait, Thread#join and timeouts inside Heddle.run.
module SchedulerIdleCpuBlocking
  include OnIOWatchBackend
  include IdleCpu

  def test_sleep_until_woken
    share, value = on_backend do
      sleeper = nil
      wake = -> { sleeper.evaluation.conclude_to(:woken) }
      CpuMeter.share_while_waiting(wake) do
        Heddle.run do
          sleeper = Fiber.schedule { sleep LIMIT }
          sleeper.evaluation.await_result
        end
      end
    end
    assert_equal :woken, value
    assert_idle share, "sleep in Heddle.run"
  end

  def test_process_wait_for_a_child
    share, value = on_backend do
      reader, writer = IO.pipe
      child = fork do
        writer.close
        exit!(reader.read(1) == "x" ? 0 : 1)
      end
      reader.close
      CpuMeter.share_while_waiting(-> { writer.write("x") }) { Heddle.run { Process.wait2(child).last.success? } }
    ensure
      [reader, writer].each { |io| io&.close unless io&.closed? }
    end
    assert_equal true, value
    assert_idle share, "Process.wait in Heddle.run"
  end

  def test_thread_join
    share, value = on_backend do
      go = Thread::Queue.new
      other = Thread.new { go.pop }
      CpuMeter.share_while_waiting(-> { go << :joined }) { Heddle.run { other.join.value } }
    end
    assert_equal :joined, value
    assert_idle share, "Thread#join in Heddle.run"
  end

  def test_timeout_timeout_around_a_wait
    share, value = on_backend do
      queue = Thread::Queue.new
      CpuMeter.share_while_waiting(-> { queue << :popped }) { Heddle.run { Timeout.timeout(LIMIT) { queue.pop } } }
    end
    assert_equal :popped, value
    assert_idle share, "Timeout.timeout in Heddle.run"
  end

  def test_with_timeout_around_a_wait
    share, value = on_backend do
      queue = Thread::Queue.new
      CpuMeter.share_while_waiting(-> { queue << :popped }) do
        Heddle.run { Heddle.with_timeout(LIMIT) { queue.pop } }
      end
    end
    assert_equal :popped, value
    assert_idle share, "Heddle.with_timeout in Heddle.run"
  end
end

class SchedulerIdleCpuSelectTest < Minitest::Test
  include SchedulerIdleCpuIO
  include SchedulerIdleCpuThreadSync
  include SchedulerIdleCpuBlocking

  def backend = Heddle::EventLoop::Selectors::SelectWatch
end

class SchedulerIdleCpuNIOTest < Minitest::Test
  include SchedulerIdleCpuIO
  include SchedulerIdleCpuThreadSync
  include SchedulerIdleCpuBlocking

  def backend = Heddle::EventLoop::Selectors::NIOWatch

  def setup
    skip "nio4r does not load: #{backend.load_error}" unless backend.available?
  end
end

class SchedulerIdleCpuEpollTest < Minitest::Test
  include SchedulerIdleCpuIO
  include SchedulerIdleCpuThreadSync
  include SchedulerIdleCpuBlocking

  def backend = Heddle::EventLoop::Selectors::EpollWatch

  def setup
    skip "epoll in C is not available: #{backend.load_error}" unless backend.available?
  end
end

# Heddle.with_timeout outside Heddle.run: its watchdog thread bounds a block
# whose blocking calls no scheduler sees, and must sleep until the deadline.
# No loop runs, so there is no selector to vary.
class SchedulerIdleCpuWatchdogTest < Minitest::Test
  include IdleCpu

  LIMIT = 30 # seconds: the timeout, never reached

  def test_a_queue_pop
    queue = Thread::Queue.new
    share, value = CpuMeter.share_while_waiting(-> { queue << :popped }) { Heddle.with_timeout(LIMIT) { queue.pop } }
    assert_equal :popped, value
    assert_idle share, "Heddle.with_timeout around Queue#pop"
  end

  def test_a_pipe_read
    reader, writer = IO.pipe
    share, value = CpuMeter.share_while_waiting(-> { writer.write("x") }) do
      Heddle.with_timeout(LIMIT) { reader.read(1) }
    end
    assert_equal "x", value
    assert_idle share, "Heddle.with_timeout around IO#read"
  ensure
    [reader, writer].each { |io| io&.close }
  end

  def test_a_mutex_held_by_another_thread
    mutex = Thread::Mutex.new
    held = Thread::Queue.new
    unlock = Thread::Queue.new
    holder = Thread.new { mutex.synchronize { (held << true) && unlock.pop } }
    held.pop
    share, value = CpuMeter.share_while_waiting(-> { unlock << true }) do
      Heddle.with_timeout(LIMIT) { mutex.synchronize { :locked } }
    end
    assert_equal :locked, value
    assert_idle share, "Heddle.with_timeout around Mutex#lock"
  ensure
    holder&.join(LIMIT)
  end

  def test_a_condition_variable_wait
    mutex = Thread::Mutex.new
    condition = Thread::ConditionVariable.new
    signalled = false
    signal = -> { mutex.synchronize { (signalled = true) && condition.signal } }
    share, value = CpuMeter.share_while_waiting(signal) do
      Heddle.with_timeout(LIMIT) { mutex.synchronize { condition.wait(mutex) until signalled } || :signalled }
    end
    assert_equal :signalled, value
    assert_idle share, "Heddle.with_timeout around ConditionVariable#wait"
  end
end
