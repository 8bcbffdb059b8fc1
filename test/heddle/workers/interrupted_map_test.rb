# frozen_string_literal: true

require "test_helper"

# A map whose caller is interrupted (the cases test/heddle/workers/
# map_interrupts_test.rb found): the caller gets the interrupt's own error,
# the pool serves the next map, and Heddle.map's pool is shut down.
class InterruptedMapTest < Minitest::Test
  include WorkerCounts

  # Ruby 3.1's ConditionVariable#wait under a Fiber scheduler does not take
  # its mutex back when the wait is interrupted, so a map that waited on one
  # raised ThreadError ("unlock a mutex which is not locked") instead.
  def test_a_map_from_a_fiber_interrupted_mid_wait_raises_the_interrupt
    pool = Heddle::Pool.new(worker: :thread, size: 1) { |x| sleep(0.05) && (x * 2) }
    outcome = Thread.new do
      Heddle.run do
        fiber = Fiber.schedule do
          pool.map([1])
        rescue KeyError => e
          e.class
        end
        sleep 0.01
        fiber.raise(KeyError, "stop")
        fiber.await_result
      end
    end.value

    assert_equal [KeyError, [4]], [outcome, pool.map([2])]
  ensure
    pool&.shutdown
  end

  # A Thread#raise that lands while Heddle.map starts its pool (or before
  # its ensure) left the pool behind: a fiber pool's thread and wake-up
  # pipe, a process pool's children and pipes.
  def test_heddle_map_interrupted_as_it_starts_leaves_no_pool_behind
    { fiber: 200, process: 60 }.each do |worker, rounds|
      before = worker_counts
      interrupt_maps(worker, rounds)

      assert_nothing_leaked(before, "Heddle.map(worker: #{worker.inspect}) interrupted as it starts")
    end
  end

  private

  def interrupt_maps(worker, rounds)
    reporting = Thread.report_on_exception
    Thread.report_on_exception = false # a raise may land before the thread's first line
    rounds.times do |i|
      caller = Thread.new { Heddle.map([1, 2], worker: worker, size: 2) { |x| x } }
      sleep((i % 20) / 10_000.0) # lands at moments 0 to 2 ms into the map
      caller.raise(KeyError, "stop")
      caller.join(5) rescue KeyError # rubocop:disable Style/RescueModifier
    end
  ensure
    Thread.report_on_exception = reporting
  end
end
