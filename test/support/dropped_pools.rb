# frozen_string_literal: true

require_relative "fresh_ruby"
require_relative "worker_counts"

# Pools dropped without shutdown, counted in a fresh ruby: in the suite's own
# process, other tests' threads open and close descriptors, start loops and
# reap children meanwhile, and a count there fails on their account.
module DroppedPools
  include FreshRuby
  include WorkerCounts

  PRELUDE = <<~RUBY.freeze
    require "heddle"
    require #{File.expand_path('proc_stat', __dir__).dump}
    require #{File.expand_path('worker_counts', __dir__).dump}
  RUBY

  # Three pools of worker, each mapping and dropped unshut (the block's
  # binding holds the pool itself), then nothing they started may be left.
  # @param worker [Symbol]
  def assert_dropped_pools_collected(worker)
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
