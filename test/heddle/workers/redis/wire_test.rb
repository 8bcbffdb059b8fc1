# frozen_string_literal: true

require "test_helper"

# What reaches a caller or a worker through Redis is data, never code: junk
# and crafted entries XADDed by hand fail their own items (or nothing) and
# leave the pool working; a result batch the caller cannot use is refused
# (logged once), failing nothing; with a secret, unsigned and forged entries
# are refused; Marshal runs only where both sides opted in by name.
class RedisWireTest < Minitest::Test
  include RedisFixture::OwnServer

  SECRET = "a shared secret of 32 bytes, ok!"

  def trap_path(name) = File.join(@server.dir, name)

  def marshal_trap(path) = Marshal.dump(RedisTestTrap.new(path))

  def secret_file
    path = File.join(@server.dir, "secret")
    File.write(path, "#{SECRET}\n")
    path
  end

  # Waits until the pool's first entry is taken by a worker (so a forged result arrives before the real one).
  def wait_running(pool)
    RedisFixture.wait_for("an entry to be running") do
      @client.call("XPENDING", keys(pool)[:items], "heddle")[0].positive?
    end
  end

  def forge_result(pool, fields) = @client.call("XADD", keys(pool)[:results], "*", *fields)

  def map_in_thread(pool, items, **options) = in_thread { pool.map(items, **options) }

  def pending(pool) = @client.call("XPENDING", keys(pool)[:items], "heddle")[0]

  def junk_entries(trap)
    [%w[x y], ["j", "99", "f", "0", "n", "1", "p", "\xFF\x00not json".b],
     ["j", "98", "f", "0", "n", "1000000000", "p", "{}"],
     ["j", "97", "f", "0", "n", "1", "p", marshal_trap(trap)],
     ["j", "96", "f", "0", "n", "1", "e", "marshal", "p", marshal_trap(trap)]]
  end

  def test_junk_entries_in_the_items_stream_fail_nothing_else_and_the_workers_stay_up
    a = worker
    pool = redis_pool(:"test.square", server: @server)
    assert_equal [1], pool.map([1])
    trap = trap_path("worker-trap")
    junk_entries(trap).each { |fields| @client.call("XADD", keys(pool)[:items], "*", *fields) }
    assert_equal [4, 9, 16], pool.map([2, 3, 4])
    RedisFixture.wait_for("the junk entries to be handled") { pending(pool).zero? }
    refute_path_exists trap, "a Marshal payload in an items stream never reaches marshal_load"
    assert_predicate a, :alive?
    assert_match(/entry .* is malformed/, a.text)
    assert_match(/entry .* rejected: JSON::ParserError/, a.text)
    assert_match(/in format "marshal", and this worker takes "json"/, a.text)
  end

  # Refused, not failing the items it names: a genuine result may still come.
  def test_a_crafted_result_batch_is_refused_and_the_items_get_their_own_results
    worker
    pool = redis_pool(:"test.sleep", server: @server)
    map = map_in_thread(pool, [1.0, 0])
    wait_running(pool)
    trap = trap_path("caller-trap")
    _, warned = capture_io do
      forge_result(pool, %w[j 1])                                 # no indices, no payload
      forge_result(pool, %w[j nope a x p y])                      # no such job
      forge_result(pool, ["j", "1", "a", "0", "p", marshal_trap(trap)])
      assert_equal [1.0, 0], outcome(map)
    end
    refute_path_exists trap, "a Marshal payload in a results stream never reaches marshal_load"
    assert_equal 2, refusals(pool), "the batch without a payload and the one that does not decode"
    assert_equal 1, warned.scan("refused a result batch").size, "logged once: #{warned}"
    assert_match(/it does not decode as json/, warned)
    assert_equal [0, 0], pool.map([0, 0]), "the collector still reads results"
  end

  def test_without_a_secret_a_crafted_json_result_is_only_data
    worker
    pool = redis_pool(:"test.sleep", server: @server)
    map = map_in_thread(pool, [1.0])
    wait_running(pool)
    forge_result(pool, ["j", "1", "a", "0", "p", JSON.generate([[0, 0, { "json_class" => "RedisTestTrap" }]])])
    assert_equal [{ "json_class" => "RedisTestTrap" }], outcome(map), "JSON additions are never created"
  end

  def test_with_a_secret_forged_results_are_refused
    worker("--secret-file", secret_file)
    pool = redis_pool(:"test.sleep", server: @server, secret: SECRET)
    assert_equal [0, 0], pool.map([0, 0]), "a signed worker and caller agree"
    map = map_in_thread(pool, [1.0])
    wait_running(pool)
    _, warned = capture_io do
      forge_result(pool, ["j", "2", "a", "0", "p", JSON.generate([[0, 0, "forged"]])])
      forge_result(pool, ["j", "2", "a", "0", "p", JSON.generate([[0, 0, "forged"]]), "s", "0" * 64])
      assert_equal [1.0], outcome(map)
    end
    assert_equal 2, refusals(pool)
    assert_match(/signature is missing/, warned)
  end

  def test_with_a_secret_unsigned_items_are_not_run
    signed = worker("--secret-file", secret_file)
    touch = redis_pool(:"test.touch", server: @server, secret: SECRET)
    path = trap_path("unsigned-ran")
    @client.call("XADD", keys(touch)[:items], "*", "j", "9", "f", "0", "n", "1", "p", JSON.generate([path]))
    assert_equal [trap_path("signed-ran")], touch.map([trap_path("signed-ran")])
    RedisFixture.wait_for("the unsigned entry to be rejected") { signed.text.include?("signature is missing") }
    refute_path_exists path, "an unsigned entry is not run by a worker with a secret"
  end

  def test_a_worker_without_the_secret_fails_signed_items_clearly
    worker
    error = nil
    capture_io do # the worker's unsigned results are refused, and that is logged
      error = assert_raises(Heddle::Workers::Redis::NoWorkerError) do
        bounded { redis_pool(:"test.square", server: @server, secret: SECRET).map([3]) }
      end
    end
    assert_equal 0, error.index
    assert_match(/do not have this pool's secret: give both the same secret/, error.message)
  end

  def test_a_caller_without_the_secret_of_its_workers_fails_clearly
    worker("--secret-file", secret_file)
    error = assert_raises(Heddle::Workers::Redis::NoWorkerError) do
      bounded { redis_pool(:"test.square", server: @server).map([3]) }
    end
    assert_match(/have a secret, and this pool has none/, error.message)
  end

  def test_marshal_runs_only_where_both_sides_opted_in
    worker("--format", "marshal_trusted_redis_only", "--namespace", "trusted")
    worker
    point = RedisTestPoint.new(1, 2)
    trusted = redis_pool(:"test.point", server: @server, format: :marshal_trusted_redis_only, namespace: "trusted")
    assert_equal [RedisTestPoint.new(2, 1)], trusted.map([point])
    error = assert_raises(Heddle::Workers::UnmarshalableError) do
      bounded { redis_pool(:"test.point", server: @server, format: :marshal_trusted_redis_only).map([point]) }
    end
    assert_match(/in format "marshal", and this worker takes "json"/, error.message)
  end

  def test_bad_wire_options_fail_at_the_call_naming_them
    assert_raises(ArgumentError) { redis_pool(:"test.square", server: @server, format: :yaml) }
    error = assert_raises(ArgumentError) { redis_pool(:"test.square", server: @server, secret: "short") }
    assert_match(/secret: must be a String of at least 16 bytes, got 5 bytes/, error.message)
    error = assert_raises(ArgumentError) { redis_pool(:"test.square", server: @server, secret_file: "/nonexistent") }
    assert_match(%r{secret_file: "/nonexistent" is not a readable file}, error.message)
    error = assert_raises(ArgumentError) { redis_pool(:"test.square", server: @server, namespace: "a b") }
    assert_match(/namespace: must be/, error.message)
  end
end
