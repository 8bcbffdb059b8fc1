# frozen_string_literal: true

require "test_helper"

# A worker's Directory of the live pools it can serve, read from a real
# redis-server: every handler's pools, each under its own handler, in one
# round trip however many handlers the worker knows (a call per handler,
# every half-second beat of every worker process, was what an idle worker
# spent its CPU on: docs/journal/core.md, "What a wait spends").
class RedisDirectoryTest < Minitest::Test
  include RedisFixture::TestHelpers

  # Counts the commands a client sends.
  class Counting < SimpleDelegator
    attr_reader :calls

    def initialize(client)
      super
      @calls = 0
    end

    def call_v(command)
      @calls += 1
      __getobj__.call_v(command)
    end
  end

  def setup
    super
    Heddle::Workers::Redis::Client.load_gem
    require "heddle/workers/redis/daemon"
  end

  def test_a_refresh_finds_each_handlers_pools_under_that_handler
    directory, client, expected = two_pools
    assert directory.refresh(client), "the list changed"
    assert_equal(expected, directory.streams.map { |stream| [stream.handler, stream.pool] })
    assert_equal [1000, 5000], [directory.streams.first.visibility_ms, directory.streams.first.ttl_ms]
    refute directory.refresh(client), "nothing changed since"
  ensure
    client&.close
  end

  def test_a_refresh_is_one_call_whatever_the_number_of_handlers
    directory, client, = two_pools
    before = client.calls
    directory.refresh(client)
    assert_equal 1, client.calls - before
  ensure
    client&.close
  end

  private

  # A directory of five handlers, a counting client that has run its script
  # once already, and two pools made since: [[handler, pool id], ...].
  def two_pools
    directory = Heddle::Workers::Redis::Directory.new(%i[test.sleep test.square test.boom test.pid test.touch],
                                                      Heddle::Workers::Redis::Keys.new("directory"))
    client = Counting.new(RedisFixture.shared.client)
    directory.refresh(client) # none yet; the server learns the script (EVALSHA, then EVAL)
    pools = %i[test.square test.pid].map { |handler| [handler, redis_pool(handler, namespace: "directory")] }
    [directory, client, pools.map { |handler, pool| [handler, pool.instance_variable_get(:@backend).pool_id] }]
  end
end
