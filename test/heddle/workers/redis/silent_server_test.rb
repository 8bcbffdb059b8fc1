# frozen_string_literal: true

require "test_helper"
require "socket"

# Heddle.map(worker: :redis, timeout: 2) on a port that accepts and
# never answers ended after 10 s (reconnect_timeout, each attempt waiting the
# client's 5 s): the one-off pool's connecting now gives up within the map's
# timeout:, which its error names. No redis-server needed.
class RedisSilentServerTest < Minitest::Test
  def setup
    Heddle.handler(:"test.silent") { |item| item }
    @server = TCPServer.new("127.0.0.1", 0)
    @accepted = []
    @acceptor = Thread.new { loop { @accepted << @server.accept } }
  end

  def teardown
    @acceptor.kill
    [@server, *@accepted].each(&:close)
  end

  def test_a_map_on_a_silent_server_gives_up_within_its_timeout
    url = "redis://127.0.0.1:#{@server.addr[1]}"
    error = assert_raises(Heddle::Workers::Redis::ConnectionLostError) do
      Heddle.map([1, 2], worker: :redis, handler: :"test.silent", url: url, timeout: 0.5)
    end
    assert_match(/could not reconnect within 0\.5 s/, error.message)
  end
end
