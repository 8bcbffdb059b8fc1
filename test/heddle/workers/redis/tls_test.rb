# frozen_string_literal: true

require "test_helper"

# `rediss://` against a real redis-server that speaks only TLS, with a
# throwaway CA made for the test: maps run with a private CA (and a client
# certificate when the server asks for one), and a certificate the caller
# or a worker does not trust fails at once, naming the handshake and the
# option to set, instead of being retried as a network failure.
class RedisTlsTest < Minitest::Test
  include RedisFixture::TestHelpers

  def teardown
    super
    @workers&.each(&:destroy)
    @server&.destroy
  end

  def server(**options)
    @server = RedisFixture::TlsServer.new(**options)
    @server.start
  rescue RedisFixture::TlsServer::Unavailable => e
    skip e.message
  end

  def worker(*args)
    (@workers ||= []) << RedisFixture::Worker.new(@server, args: args)
    @workers.last
  end

  def test_a_map_over_rediss_with_a_private_ca_and_a_client_certificate
    server
    runner = worker(*@server.worker_args).ready
    pool = redis_pool(:"test.pid", server: @server, **@server.pool_options)
    results = bounded { pool.map((0...20).to_a) }
    assert_equal (0...20).to_a, results.map(&:first)
    assert_equal [runner.pid], results.map(&:last).uniq
    plain = RedisClient.config(url: @server.url.sub("rediss:", "redis:"), connect_timeout: 2, read_timeout: 2)
    assert_raises(RedisClient::ConnectionError, "the server speaks only TLS") { plain.new_client.call("PING") }
  end

  def test_a_private_ca_alone_when_the_server_asks_no_client_certificate
    server(client_certificates: false)
    worker("--tls-ca-file", @server.certs["ca.pem"]).ready
    pool = redis_pool(:"test.square", server: @server, ssl_ca_file: @server.certs["ca.pem"])
    assert_equal([4, 9], bounded { pool.map([2, 3]) })
  end

  def test_a_certificate_the_caller_does_not_trust_fails_the_pool_at_once
    server
    [@server.certs["other_ca.pem"], nil].each do |ca|
      # A reconnect_timeout past the bound: only a failure at once ends in time.
      options = @server.pool_options.merge(ssl_ca_file: ca, reconnect_timeout: 600).compact
      error = assert_raises(Heddle::Workers::Redis::TLSError, "trusting #{ca.inspect}") do
        bounded { redis_pool(:"test.square", server: @server, **options) }
      end
      assert_match(%r{TLS handshake with rediss://127\.0\.0\.1:\d+/0 failed \(certificate verify failed}, error.message)
      assert_match(/trust the server's CA with ssl_ca_file:/, error.message)
    end
  end

  def test_a_certificate_for_another_host_fails_the_pool_at_once
    server
    url = @server.url.sub("127.0.0.1", "localhost") # the certificate names 127.0.0.1 only
    error = assert_raises(Heddle::Workers::Redis::TLSError) do
      bounded do
        Heddle::Pool.new(worker: :redis, handler: :"test.square", url: url, reconnect_timeout: 600,
                         **@server.pool_options).tap { |pool| @pools << pool }
      end
    end
    assert_match(/certificate verify failed \(hostname mismatch\)/, error.message)
  end

  def test_a_worker_that_does_not_trust_the_certificate_exits_1_in_one_line
    server
    untrusting = worker("--tls-ca-file", @server.certs["other_ca.pem"], "--tls-cert-file",
                        @server.certs["client.pem"], "--tls-key-file", @server.certs["client.key"])
    assert_equal 1, untrusting.wait.exitstatus
    assert_equal 1, untrusting.text.lines.size, "one line: #{untrusting.text}"
    assert_match(/TLS handshake with rediss:.* failed \(certificate verify failed.*--tls-ca-file/, untrusting.text)
  end

  # The server closes a connection that brings no client certificate:
  # OpenSSL reads its alert ("certificate required", a TLSError at once),
  # or only the reset, which looks like a network failure (retried, then
  # ConnectionLostError naming the URL and the options that may be
  # missing). A worker exits saying so, or warns at start and retries.
  def test_a_missing_client_certificate_fails_naming_the_certificate_options
    server
    options = { ssl_ca_file: @server.certs["ca.pem"], reconnect_timeout: 1 }
    error = assert_raises(Heddle::Workers::Redis::ConnectionLostError, Heddle::Workers::Redis::TLSError) do
      bounded { redis_pool(:"test.square", server: @server, **options) }
    end
    assert_match(%r{rediss://127\.0\.0\.1:\d+/0}, error.message)
    assert_match(/certificate required|if the server asks for client certificates .* give ssl_cert_file:/,
                 error.message)
    hinted = worker("--tls-ca-file", @server.certs["ca.pem"])
    RedisFixture.wait_for("the worker to name the certificate options") do
      hinted.text.match?(%r{give --tls-cert-file/--tls-key-file})
    end
  end
end
