# frozen_string_literal: true

require "test_helper"

# Every error Redis can answer while a map runs (LOADING, BUSY, READONLY,
# MASTERDOWN, OOM) is ridden out by the caller's collector, the workers'
# heartbeats and lanes: the map completes with every result once, the
# workers stay up and serve the next map. Each test provokes one on a
# redis-server of its own for about a second, then lifts it.
class RedisRefusalsTest < Minitest::Test
  include RedisFixture::TestHelpers

  # Seconds each refusal lasts: several heartbeats and collector ticks.
  REFUSAL = 1.5

  def setup
    super
    @server = RedisFixture::Server.new(args: %w[--enable-debug-command yes]).start
    @admin = @server.client(read_timeout: 10)
    @workers = Array.new(2) { RedisFixture::Worker.new(@server) }.each(&:ready)
  end

  def teardown
    super
    @admin&.close
    @workers&.each(&:destroy)
    @server&.destroy
  end

  # Runs a map of slow items, provokes the refusal once a batch is done,
  # and checks that the map, the workers and the pool all come through.
  def survives(refusal)
    items = (0...40).map { |n| [n, 0.05] }
    map = mapping(items)
    RedisFixture.wait_for("a batch") { @workers.any? { |w| w.text.include?("done in") } }
    refusal.call
    results = bounded { map.value }
    assert_equal items.map(&:first), results.map(&:first), "every item once, in order"
    assert @workers.all?(&:alive?), "the workers stay up"
    assert_equal([0, 1, 2].map { |n| n * n }, bounded { redis_pool(:"test.square", server: @server).map([0, 1, 2]) })
  end

  def mapping(items)
    pool = redis_pool(:"test.slow", server: @server, reconnect_timeout: 20)
    map = Thread.new { pool.map(items) }
    map.report_on_exception = false
    map
  end

  def test_loading_after_a_reload
    @admin.call("DEBUG", "POPULATE", 10_000)
    @admin.call("CONFIG", "SET", "key-load-delay", 100) # µs per key: ~1 s of LOADING
    @admin.call("CONFIG", "SET", "loading-process-events-interval-bytes", 1024) # answer LOADING while loading
    survives(lambda do
      @admin.blocking_call(30, "DEBUG", "RELOAD")
      @admin.call("CONFIG", "SET", "key-load-delay", 0)
    end)
  end

  def test_busy_script
    @admin.call("CONFIG", "SET", "busy-reply-threshold", 100)
    survives(lambda do
      busy = Thread.new do
        client = @server.client(read_timeout: 30)
        client.call("EVAL", "while true do end", 0)
      rescue RedisClient::CommandError
        nil # killed below
      ensure
        client&.close
      end
      sleep REFUSAL
      RedisFixture.wait_for("the script to be killed") do
        @admin.call("SCRIPT", "KILL")
      rescue RedisClient::CommandError
        !busy.alive?
      end
      busy.join
    end)
  end

  def test_out_of_memory
    survives(lambda do
      @admin.call("CONFIG", "SET", "maxmemory", 1)
      sleep REFUSAL
      @admin.call("CONFIG", "SET", "maxmemory", 0)
    end)
  end

  # A refusal that outlasts reconnect_timeout fails the map, naming it.
  def test_a_refusal_that_lasts_fails_the_map_naming_it
    pool = Heddle::Pool.new(worker: :redis, handler: :"test.square", url: @server.url, reconnect_timeout: 1)
    @pools << pool
    @admin.call("CONFIG", "SET", "maxmemory", 1)
    error = assert_raises(Heddle::Workers::Redis::ConnectionLostError) { bounded { pool.map([1, 2]) } }
    assert_match(%r{redis://127\.0\.0\.1:\d+/0 kept refusing \(.*OOM command not allowed.*\) for 1 s}, error.message)
  ensure
    @admin.call("CONFIG", "SET", "maxmemory", 0)
  end

  # A replica whose master is gone: READONLY for writes, MASTERDOWN for reads.
  def test_readonly_and_masterdown_replica
    survives(lambda do
      @admin.call("CONFIG", "SET", "replica-serve-stale-data", "no")
      @admin.call("REPLICAOF", "127.0.0.1", RedisFixture::Server.allocate.send(:free_port))
      sleep REFUSAL
      @admin.call("REPLICAOF", "NO", "ONE")
    end)
    assert @workers.any? { |w| w.text.match?(/READONLY|MASTERDOWN/) }, "the refusal reached the workers"
  end
end
