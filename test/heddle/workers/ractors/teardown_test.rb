# frozen_string_literal: true

require "test_helper"

# Ractor pools ended while other ractor pools work: dropped and
# collected, or shut down from another thread, round after round. On Ruby
# 3.3.8 --yjit, ractors ending so deadlocked the whole VM in most runs of 300
# rounds (bench/scripts/workers/ractor_teardown_stress.rb); their ractors
# now go back to the reserve and none ends. Each case runs in a fresh `ruby`,
# killed if it hangs.
class RactorTeardownTest < Minitest::Test
  include FreshRuby

  PRELUDE = <<~RUBY
    require "heddle"
    Warning[:experimental] = false
    module H
      # Garbage on every item, so that the GC (and its barrier) runs.
      WORK = proc { |x| Array.new(300) { |i| "x\#{i}" }.size + x }
      NEGATE = proc { |x| -x }
      # Longer garbage-making work, so that stops reach running chunks. (No
      # sleep: a stop into an item's timed wait can still hang 3.3.8, whose
      # timed waits in ractors are its own bug; docs/workers.md, "Ractors".)
      LONG = proc { |x| Array.new(3000) { |i| "x\#{i}" }.size - 2700 + x }
    end
    ITEMS = (1..20).to_a
    EXPECTED = ITEMS.map { |x| 300 + x }
    def reserve = Heddle::Workers::Ractors::Reserve.size
    # Dropped pools give their ractors back once collected and their lanes
    # have run: up to 20 s of GCs.
    def settle
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 20
      until Ractor.count - 1 == reserve || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
        GC.start
        sleep 0.01
      end
    end
  RUBY

  ROUNDS = 100

  def test_pools_dropped_while_others_work_end_no_ractor
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE, limit: 180)
      # In a thread of its own, so that no stale stack slot keeps a pool.
      wrong = Thread.new do
        #{ROUNDS}.times.count do |round|
          pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::WORK)
          right = pool.map(ITEMS) == EXPECTED
          pool = nil # its finalizer gives its ractors back, in a later GC
          GC.start if round % 5 == 4
          !right
        end
      end.value
      settle
      [wrong, Ractor.count - 1 == reserve, reserve < #{ROUNDS}]
    RUBY
    assert_equal [0, true, true], result
  end

  def test_pools_shut_down_from_other_threads_while_others_work_end_no_ractor
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE, limit: 180)
      stoppers = []
      wrong = #{ROUNDS}.times.count do
        pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::WORK)
        right = pool.map(ITEMS) == EXPECTED
        stoppers << Thread.new(pool, &:shutdown)
        !right
      end
      stoppers.each(&:join)
      # Every ractor ever started is alive and idle, and they were reused.
      [wrong, Ractor.count - 1 == reserve, reserve < #{ROUNDS}]
    RUBY
    assert_equal [0, true, true], result
  end

  # Stops sent to worker ractors mid-chunk, from the thread that kills the pool
  # (a stop is sent to a worker's doorbell, not to a thread sleeping
  # in Ractor.receive): every map is right or cancelled, and the killed pools'
  # ractors all went back to the reserve.
  def test_pools_killed_while_another_thread_maps_end_no_ractor
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE, limit: 180)
      outcomes = Array.new(#{ROUNDS}) do |round|
        pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::LONG)
        mapper = Thread.new do
          pool.map(ITEMS) == EXPECTED ? :right : :wrong
        rescue Heddle::Workers::CancelledError
          :cancelled
        rescue Heddle::Workers::Error => e
          e.message.include?("the pool is shut down") ? :cancelled : e.class
        end
        round % 5 == 4 ? mapper.join : sleep(0.001 * (round % 20)) # some maps end before the kill
        pool.shutdown(kill: true)
        mapper.value
      end
      [outcomes - %i[right cancelled], outcomes.include?(:right), Ractor.count - 1 == reserve]
    RUBY
    assert_equal [[], true, true], result
  end

  # A stale stop for a ractor's last pool must not stop its next pool's chunk.
  def test_a_reused_ractor_serves_its_next_pool
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE, limit: 60)
      first = Heddle::Pool.new(worker: :ractor, size: 2, &H::WORK)
      first.map(ITEMS)
      first.shutdown
      kept = reserve
      second = Heddle::Pool.new(worker: :ractor, size: 2, &H::NEGATE)
      [kept, reserve, Ractor.count, second.map(ITEMS)].tap { second.shutdown }
    RUBY
    assert_equal [2, 0, 3, (1..20).map(&:-@)], result
  end
end
