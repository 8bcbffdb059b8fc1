# frozen_string_literal: true

require "test_helper"
require "timeout"

# 1,000,000 promise hand-offs (600,000 between fibers of one thread, 400,000
# from threads to threads and to fibers of another thread), most waits with a
# random timeout, some of which expire and are retried: every value must
# arrive exactly once, and the whole test must end in bounded time.
class PromiseStressTest < Minitest::Test
  FIBER_HANDOFFS = 600_000
  THREAD_HANDOFFS = 400_000
  FIBERS = 100
  LIMIT = 60 # seconds; a lost wake-up would hang a waiter, this ends the test instead

  # A random timeout: mostly none, else a fraction of a millisecond (often expiring).
  def self.timeout_for(random)
    roll = random.rand
    return nil if roll < 0.7
    return 0 if roll < 0.75

    random.rand * 0.0005
  end

  # Waits on the promise, retrying timed-out waits; records the value or
  # the rejection's value.
  # @return [Integer] the waits that timed out
  def self.receive(promise, random, seen)
    timeouts = wait_resolved(promise, random)
    index = promise.fulfilled? ? promise.value : promise.reason.message.to_i
    seen[index] += 1
    timeouts
  end

  def self.wait_resolved(promise, random)
    timeouts = 0
    timeouts += 1 until promise.wait(timeout_for(random))
    timeouts
  end

  def test_fiber_handoffs_in_one_thread
    seen = Array.new(FIBER_HANDOFFS, 0)
    timeouts = Timeout.timeout(LIMIT) { fiber_handoffs(seen) }
    assert_equal [1], seen.uniq, "some value arrived #{seen.max} times, some #{seen.min}"
    assert timeouts.positive?, "no wait timed out: the retry path went untested"
  end

  def test_thread_and_cross_thread_fiber_handoffs
    promises = Array.new(THREAD_HANDOFFS) { Heddle::Promise.new }
    seen = Array.new(THREAD_HANDOFFS, 0)
    threads = []
    Timeout.timeout(LIMIT) do
      threads = consumers(promises, seen) + producers(promises)
      threads.each(&:join)
    end
    assert_equal [1], seen.uniq, "some value arrived #{seen.max} times, some #{seen.min}"
  ensure
    threads.each(&:kill)
  end

  private

  def fiber_handoffs(seen)
    shared = []
    timeouts = 0
    per_fiber = FIBER_HANDOFFS / FIBERS
    waiters = Array.new(FIBERS) do |f|
      Heddle.concurrently do
        random = Random.new(f)
        per_fiber.times do
          shared << (promise = Heddle::Promise.new)
          timeouts += self.class.receive(promise, random, seen)
        end
      end
    end
    resolver = Heddle.concurrently { resolve_in_order(shared) }
    (waiters + [resolver]).each { |e| e.await_result(within: LIMIT) }
    timeouts
  end

  # Resolves each promise with a unique index: every 1,000th is rejected.
  def resolve_in_order(shared)
    index = 0
    while index < FIBER_HANDOFFS
      if (promise = shared.shift)
        settle(promise, index)
        index += 1
      else
        Heddle.wait(0)
      end
    end
  end

  def settle(promise, index)
    if (index % 1000) == 999
      promise.reject(RuntimeError.new(index.to_s))
    else
      promise.fulfill(index)
    end
  end

  # Two producer threads settle the promises in order (even and odd indices).
  def producers(promises)
    Array.new(2) do |lane|
      Thread.new do
        lane.step(promises.size - 1, 2) do |i|
          settle(promises[i], i)
          Thread.pass if (i % 512) < 2
        end
      end
    end
  end

  # Four lanes of consumers: two threads, and one thread whose heddle loop runs
  # two fibers; lane k takes the indices i with i % 4 == k.
  def consumers(promises, seen)
    lane = ->(k, random) { k.step(promises.size - 1, 4) { |i| self.class.receive(promises[i], random, seen) } }
    threads = Array.new(2) { |k| Thread.new { lane.call(k, Random.new(k)) } }
    threads << Thread.new do
      fibers = [2, 3].map { |k| Heddle.concurrently { lane.call(k, Random.new(k)) } }
      fibers.each { |e| e.await_result(within: LIMIT) }
    end
  end
end
