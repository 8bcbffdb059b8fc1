# frozen_string_literal: true

require "test_helper"

# A worker killed with -9 loses its entries to the others as soon as its
# heartbeat lapses, not after the visibility timeout: here the timeout is
# 600 s, so a map that ends at all ended by the heartbeat path. Timings are
# measured in bench/redis_kill_recovery.rb, not asserted here.
class RedisReclaimTest < Minitest::Test
  include RedisFixture::TestHelpers
  include RedisFixture::EntryHolding

  def setup
    super
    @server = RedisFixture::Server.new.start
    @workers = Array.new(2) { RedisFixture::Worker.new(@server) }.each(&:ready)
  end

  def teardown
    super
    @workers&.each(&:destroy)
    @server&.destroy
  end

  def test_a_killed_workers_entries_move_when_its_heartbeat_lapses_not_after_the_visibility_timeout
    victim, survivor = @workers
    pool = redis_pool(:"test.slow", server: @server, visibility_timeout: 600)
    items = (0...100).map { |n| [n, 0.02] }
    map = Thread.new { pool.map(items) }
    map.report_on_exception = false
    wait_until_running(victim, pool)
    victim.signal("KILL")
    victim.wait
    results = bounded { map.value }
    assert_equal items.map(&:first), results.map(&:first), "every item once, in order"
    assert_empty results.map(&:last) - [victim.pid, survivor.pid]
    RedisFixture.wait_for("the survivor to log the entry it took over") { survivor.text.include?("taken over") }
  end

  # A worker that is alive keeps its entry however long it runs: its
  # heartbeat goes on, so nobody takes it (the visibility timeout, not the
  # heartbeat, is what moves a live but stuck worker's entries).
  def test_a_live_workers_long_entry_is_not_taken
    pool = redis_pool(:"test.slow", server: @server, visibility_timeout: 600, size: 1)
    assert_equal [0], pool.map([[0, 2.5]]).map(&:first)
    refute @workers.any? { |w| w.text.include?("taken over") }, "no entry was taken from a live worker"
  end
end
