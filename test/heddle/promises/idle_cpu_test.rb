# frozen_string_literal: true

require "test_helper"

# The idle-CPU family, the promises' part: a promise waited on by each kind
# of waiter and fulfilled from another thread spends at most
# CpuMeter::IDLE_SHARE of a core while it waits, on each selector. A thread
# waiter may spin on the GVL a few passes before it parks (Spinner, by
# design); it must then sleep.
module PromisesIdleCpu
  include OnIOWatchBackend
  include IdleCpu

  def test_value_in_a_thread
    share, value = on_backend { fulfilled_while(&:value!) }
    assert_equal :kept, value
    assert_idle share, "Promise#value! in a thread"
  end

  def test_value_with_a_timeout_in_a_thread
    share, value = on_backend { fulfilled_while { |promise| promise.value!(LIMIT) } }
    assert_equal :kept, value
    assert_idle share, "Promise#value!(timeout) in a thread"
  end

  def test_wait_in_a_plain_fiber
    share, value = on_backend { fulfilled_while { |promise| Fiber.new { promise.wait(LIMIT) }.resume } }
    assert_equal true, value
    assert_idle share, "Promise#wait in a fiber without a scheduler"
  end

  def test_value_in_a_concurrent_proc
    share, value = on_backend { fulfilled_while { |promise| Heddle.concurrently { promise.value! }.await_result } }
    assert_equal :kept, value
    assert_idle share, "Promise#value! in a concurrent proc"
  end

  def test_value_in_heddle_run
    share, value = on_backend { fulfilled_while { |promise| Heddle.run { promise.value!(LIMIT) } } }
    assert_equal :kept, value
    assert_idle share, "Promise#value! in Heddle.run"
  end

  # A wait on another thread's evaluation goes through its promise, and an
  # owner watcher thread joins the owner meanwhile.
  def test_await_result_of_another_threads_evaluation
    share, value = on_backend do
      go = Thread::Queue.new
      started = Thread::Queue.new
      owner = Thread.new do
        Heddle.run { Heddle.concurrently { go.pop }.tap { |evaluation| started << evaluation }.await_result }
      end
      evaluation = started.pop
      CpuMeter.share_while_waiting(-> { go << :concluded }) { evaluation.await_result }.tap { owner.join(LIMIT) }
    end
    assert_equal :concluded, value
    assert_idle share, "Evaluation#await_result from another thread"
  end

  private

  # Measures the block's wait on a promise that another thread fulfils.
  def fulfilled_while
    promise = Heddle::Promise.new
    CpuMeter.share_while_waiting(-> { promise.fulfill(:kept) }) { yield promise }
  end
end

class PromisesIdleCpuSelectTest < Minitest::Test
  include PromisesIdleCpu

  def backend = Heddle::EventLoop::Selectors::SelectWatch
end

class PromisesIdleCpuNIOTest < Minitest::Test
  include PromisesIdleCpu

  def backend = Heddle::EventLoop::Selectors::NIOWatch

  def setup
    skip "nio4r does not load: #{backend.load_error}" unless backend.available?
  end
end

class PromisesIdleCpuEpollTest < Minitest::Test
  include PromisesIdleCpu

  def backend = Heddle::EventLoop::Selectors::EpollWatch

  def setup
    skip "epoll in C is not available: #{backend.load_error}" unless backend.available?
  end
end
