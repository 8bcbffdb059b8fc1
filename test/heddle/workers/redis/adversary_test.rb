# frozen_string_literal: true

require "test_helper"
require "heddle/workers/redis/daemon"

# Someone who can write to the Redis (XADD into the pool's streams) against
# a caller and a `heddle worker`: a forged result never reshapes a map's
# answer or raises a class of its choosing; with a secret, a forged,
# edited or replayed entry runs nothing and fails no genuine item.
class RedisAdversaryTest < Minitest::Test
  include RedisFixture::OwnServer

  SECRET = "another shared secret, 32 bytes!"
  # Exceptions a `rescue => e` does not catch; SystemExit would end the caller.
  UNCATCHABLE = %w[SystemExit Interrupt NoMemoryError SignalException SystemStackError].freeze

  def path(name) = File.join(@server.dir, name)

  def secret_file = path("secret").tap { |file| File.write(file, "#{SECRET}\n") }

  def forge_result(pool, job, triples)
    @client.call("XADD", keys(pool)[:results], "*", "j", job.to_s, "a", triples.map(&:first).join(","),
                 "p", JSON.generate(triples))
  end

  def runs(log) = File.exist?(log) ? File.read(log).lines.size : 0

  def test_a_forged_result_for_an_index_outside_the_map_changes_nothing
    worker
    pool = redis_pool(:"test.counted", server: @server)
    log = path("runs")
    gate = path("gate")
    map = in_thread { pool.map([[log, gate]] * 3) }
    RedisFixture.wait_for("an item to run") { runs(log).positive? }
    capture_io do
      forge_result(pool, 1, [[10, 0, "x"], [11, 0, "y"], [12, 0, "z"]])
      forge_result(pool, 1, [[50_000_000, 0, "far"], [-1, 0, "before"]])
      @client.call("XADD", keys(pool)[:results], "*", "j", "1", "p", "[[0,0,#{'9' * 1_000_000}]]") # a cost bomb
      File.write(gate, "")
      assert_equal [true] * 3, outcome(map), "three results, the workers' own"
    end
    assert_equal 3, refusals(pool), "each batch naming an index outside the map, and the one over the limits"
  end

  def test_a_forged_error_record_comes_back_as_a_remote_error_never_as_the_class_it_names
    worker
    pool = redis_pool(:"test.counted", server: @server)
    log = path("runs")
    gate = path("gate")
    map = in_thread { pool.map([[log, gate]] * UNCATCHABLE.size, fail_fast: false) }
    error = outcome_of_forged_errors(pool, map, log, gate)
    assert_kind_of Heddle::Workers::Errors, error
    assert_equal [Heddle::Workers::Redis::RemoteError], error.errors.values.map(&:class).uniq
    assert_equal(UNCATCHABLE, error.errors.sort.map { |_, e| e.remote_class })
    assert_equal "SystemExit: forged", error.errors[0].message
  end

  # Before, the worker answered a forged entry with an error for each index
  # it claimed, signed: the genuine items failed.
  def test_with_a_secret_a_forged_entry_naming_a_maps_items_runs_nothing_and_fails_none
    signed = worker("--secret-file", secret_file)
    pool = redis_pool(:"test.touch", server: @server, secret: SECRET)
    forged = path("forged-ran")
    # The map to come is the pool's job 1; its entry is behind this one.
    @client.call("XADD", keys(pool)[:items], "*", "j", "1", "f", "0", "n", "2", "p", JSON.generate([forged, forged]))
    genuine = [path("a"), path("b")]
    assert_equal(genuine, bounded { pool.map(genuine) })
    RedisFixture.wait_for("the forged entry to be refused") { signed.text.include?("refused, nothing run") }
    refute_path_exists forged
    assert_equal 0, @client.call("XPENDING", keys(pool)[:items], "heddle")[0], "refused entries are acknowledged"
  end

  # A copy of a signed entry gets a new stream id, which its signature does
  # not cover; the same id again (the stream made anew) is one this worker
  # read already. Before, each copy ran the handler again.
  def test_with_a_secret_a_replayed_entry_runs_nothing
    signed = worker("--secret-file", secret_file)
    pool = redis_pool(:"test.counted", server: @server, secret: SECRET)
    log = path("runs")
    gate = path("gate")
    id, fields = held_entry(pool, log, gate)
    @client.call("XADD", keys(pool)[:items], "*", *fields)
    RedisFixture.wait_for("the copy to be refused") { signed.text.include?("refused, nothing run") }
    add_anew(keys(pool)[:items], id, fields)
    RedisFixture.wait_for("the entry under its old id to be read") { read_and_gone?(pool, id) }
    assert_equal 1, runs(log), "the item ran once"
    assert_match(/signature is wrong/, signed.text, "the copy, under a new id")
  end

  # Node#first_read? tells an id read as new before from a new one.
  def test_a_worker_process_reads_an_entry_id_as_new_once
    node = Heddle::Workers::Redis::Node.new(config: Heddle::Workers::Redis::Config.new(url: @server.url),
                                            handlers: [], logger: Logger.new(nil))
    assert node.first_read?("s", "1-0")
    refute node.first_read?("s", "1-0")
    assert node.first_read?("other", "1-0")
  end

  # Delivered to the worker, acknowledged, deleted: refused (only the first
  # refusal of a pool is logged).
  def read_and_gone?(pool, id)
    group = @client.call("XINFO", "GROUPS", keys(pool)[:items]).first
    group["last-delivered-id"] == id && group["pending"].zero? && @client.call("XLEN", keys(pool)[:items]).zero?
  end

  # A map of one item, held while its entry is copied: [id, fields].
  def held_entry(pool, log, gate)
    map = in_thread { pool.map([[log, gate]]) }
    RedisFixture.wait_for("the item to run") { runs(log) == 1 }
    id, fields = @client.call("XRANGE", keys(pool)[:items], "-", "+").first
    File.write(gate, "")
    assert_equal [true], outcome(map)
    [id, fields.is_a?(Hash) ? fields.to_a.flatten : fields]
  end

  # Once an item runs, one batch with an error record for each index, naming
  # each of UNCATCHABLE; the map's outcome (then the items are let go).
  def outcome_of_forged_errors(pool, map, log, gate)
    RedisFixture.wait_for("an item to run") { runs(log).positive? }
    forge_result(pool, 1, UNCATCHABLE.each_with_index.map { |name, i| [i, 1, [name, "forged", [], nil, "h", 1]] })
    outcome(map)
  ensure
    File.write(gate, "")
  end

  # The stream made anew, the entry added under its old id.
  def add_anew(stream, id, fields)
    @client.call("DEL", stream)
    @client.call("XGROUP", "CREATE", stream, "heddle", "0", "MKSTREAM")
    @client.call("XADD", stream, id, *fields)
  end
end
