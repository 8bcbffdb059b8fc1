# frozen_string_literal: true

require "test_helper"

# A pool dropped without shutdown is collected, and its finalizer stops its
# workers: no thread, child process or descriptor outlives it. The usual
# way to hold a pool, `pool = Heddle::Pool.new { ... }`, makes the block's
# binding hold the pool itself, so the workers must not keep the block
# alive while they wait.
class DroppedPoolTest < Minitest::Test
  include WorkerCounts
  include FreshRuby

  PRELUDE = <<~RUBY.freeze
    require "heddle"
    require #{File.expand_path('../../support/proc_stat', __dir__).dump}
    require #{File.expand_path('../../support/worker_counts', __dir__).dump}
  RUBY

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

  # Counted in a fresh ruby: in the suite's own process, other tests'
  # threads open and close descriptors and reap children meanwhile.
  %i[inline fiber thread process].each do |worker|
    define_method("test_a_dropped_#{worker}_pool_that_its_block_can_see_is_collected") do
      before, after = in_fresh_ruby(<<~RUBY, prelude: PRELUDE)
        before = WorkerCounts.worker_counts
        # In a thread of its own, so that no stale stack slot keeps a pool.
        Thread.new do
          3.times do
            # The block's binding holds `pool` even though the block never reads it.
            pool = Heddle::Pool.new(worker: :#{worker}, size: 2) { |x| x }
            raise "map answered \#{pool.map([1, 2]).inspect}" unless pool.map([1, 2]) == [1, 2]
            raise "submit answered wrong" unless pool.submit(3).value!(10) == 3
          end
        end.join
        [before.to_a, WorkerCounts.settle_counts(before).to_a]
      RUBY
      assert_nothing_left(Counts.new(*before), Counts.new(*after), "3 dropped #{worker} pools")
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
