# frozen_string_literal: true

require "test_helper"

# A pool dropped without shutdown is collected, and its finalizer stops its
# workers: no thread, child process or descriptor outlives it. The usual
# way to hold a pool, `pool = Heddle::Pool.new { ... }`, makes the block's
# binding hold the pool itself, so the workers must not keep the block
# alive while they wait.
class DroppedPoolTest < Minitest::Test
  include DroppedPools

  # Holds items until opened: a queue, or for worker processes (which have
  # their own copy of everything else) a pipe.
  class Gate
    def initialize(worker)
      @reader, @writer = IO.pipe if worker == :process
      @queue = Thread::Queue.new
    end

    def pass = @reader ? @reader.gets : @queue.pop

    def open = @writer ? @writer.puts : @queue.push(true)

    def close = [@reader, @writer].compact.each(&:close)
  end

  %i[inline fiber thread process].each do |worker|
    define_method("test_a_dropped_#{worker}_pool_that_its_block_can_see_is_collected") do
      assert_dropped_pools_collected(worker)
    end
  end

  %i[fiber thread process].each do |worker|
    define_method("test_an_item_submitted_to_a_dropped_#{worker}_pool_still_runs") do
      gate = Gate.new(worker)
      promise = Thread.new { Heddle::Pool.new(worker: worker, size: 1) { |x| gate.pass && (x * 2) }.submit(21) }.value
      3.times { GC.start }
      gate.open
      assert_equal 42, promise.value!(10)
    ensure
      gate.close
    end
  end
end
