# frozen_string_literal: true

require "test_helper"

# The Redis backend's options: namespaces that keep two applications on one
# server apart, credentials from options, the environment or files (refused
# ones fail at once, in one line), TLS files handed to redis-client, and
# bad values refused at the call naming the option.
class RedisOptionsTest < Minitest::Test
  include RedisFixture::TestHelpers

  PASSWORD = "s3cret-pass"

  def teardown
    super
    @workers&.each(&:destroy)
    @server&.destroy
  end

  def server(*args) = @server ||= RedisFixture::Server.new(args: args).start

  def worker(*args)
    (@workers ||= []) << RedisFixture::Worker.new(server, args: args)
    @workers.last
  end

  def file(name, text)
    path = File.join(server.dir, name)
    File.write(path, "#{text}\n")
    path
  end

  def test_two_namespaces_on_one_server_never_run_each_others_items
    one = worker("--namespace", "app1").ready
    two = worker("--namespace", "app2").ready
    maps = %w[app1 app2].map do |namespace|
      pool = redis_pool(:"test.pid", server: server, namespace: namespace)
      Thread.new { pool.map((0...40).to_a).map(&:last).uniq }
    end
    assert_equal([[one.pid], [two.pid]], maps.map { |t| bounded { t.value } })
    assert_operator keys("app1:*").size, :>, 0
    assert_empty keys("heddle:*"), "nothing under the default namespace"
  end

  def keys(pattern)
    client = server.client
    client.call("KEYS", pattern)
  ensure
    client&.close
  end

  def test_a_password_from_a_file_or_an_option_and_a_wrong_one_fails_at_once
    server("--requirepass", PASSWORD)
    good = worker("--password-file", file("password", PASSWORD)).ready
    assert_equal [4], redis_pool(:"test.square", server: server, password: PASSWORD).map([2])
    refute_match(/#{PASSWORD}/, good.text, "the password is not logged")
    error = assert_raises(Heddle::Workers::Redis::AuthenticationError) do
      bounded { redis_pool(:"test.square", server: server, password: "nope") }
    end
    assert_match(/refused the credentials \(WRONGPASS/, error.message)
  end

  def test_a_worker_refused_its_credentials_exits_1_in_one_line
    server("--requirepass", PASSWORD)
    bad = worker("--password-file", file("wrong", "nope"))
    assert_equal 1, bad.wait.exitstatus
    assert_equal 1, bad.text.lines.size, "one line: #{bad.text}"
    assert_match(/refused the credentials \(WRONGPASS/, bad.text)
    missing = worker
    assert_equal 1, missing.wait.exitstatus
    assert_match(/refused the credentials \(NOAUTH/, missing.text)
  end

  def test_an_acl_user_from_the_environment
    server
    admin = server.client
    admin.call("ACL", "SETUSER", "app", "on", ">#{PASSWORD}", "~*", "&*", "+@all")
    admin.call("ACL", "SETUSER", "default", "off")
    worker("--username", "app", "--password-file", file("password", PASSWORD)).ready
    env = { "HEDDLE_REDIS_USERNAME" => "app", "HEDDLE_REDIS_PASSWORD" => PASSWORD }
    config = Heddle::Workers::Redis::Config.new(url: server.url, env: env)
    client = config.connect
    assert_equal "app", client.call("ACL", "WHOAMI")
    assert_equal [9], redis_pool(:"test.square", server: server, username: "app", password: PASSWORD).map([3])
  ensure
    client&.close
    admin&.close
  end

  def test_tls_files_reach_redis_client
    ca = file("ca.pem", "ca")
    config = Heddle::Workers::Redis::Config.new(url: "rediss://127.0.0.1:1/0", ssl_ca_file: ca, env: {})
    client = config.connect
    assert client.config.ssl
    assert_equal ca, client.config.ssl_params[:ca_file]
    error = assert_raises(ArgumentError) do
      Heddle::Workers::Redis::Config.new(url: server.url, ssl_cert_file: "/nonexistent/cert.pem", env: {})
    end
    assert_match(%r{ssl_cert_file: "/nonexistent/cert.pem" is not a readable file}, error.message)
  ensure
    client&.close
  end

  def test_bad_seconds_fail_at_the_call_naming_the_option
    url = server.url
    [[:ttl, Float::INFINITY], [:visibility_timeout, Float::INFINITY], [:ttl, Float::NAN], [:ttl, 0.01],
     [:visibility_timeout, 0.1], [:reconnect_timeout, -1], [:ttl, 10**20], [:ttl, "60"]].each do |key, value|
      error = assert_raises(ArgumentError, "#{key}: #{value}") do
        Heddle::Pool.new(worker: :redis, handler: :"test.square", url: url, key => value)
      end
      assert_match(/\A#{key}: must be seconds from/, error.message)
    end
  end

  def test_a_db_the_server_lacks_fails_naming_the_url_and_the_db
    url = server.url.sub(%r{/0\z}, "/99")
    error = assert_raises(ArgumentError) do
      # A reconnect_timeout past the bound: only a failure at once ends in time.
      bounded { Heddle::Pool.new(worker: :redis, handler: :"test.square", url: url, reconnect_timeout: 600) }
    end
    assert_match(%r{\Aurl: redis://127\.0\.0\.1:\d+/99 names db 99, which the server does not have}, error.message)
  end

  def test_a_worker_given_a_db_the_server_lacks_exits_1_in_one_line_naming_it
    worker = RedisFixture::Worker.new(server, args: ["--redis", server.url.sub(%r{/0\z}, "/99")])
    (@workers ||= []) << worker
    assert_equal 1, worker.wait.exitstatus
    assert_equal 1, worker.text.lines.size, "one line: #{worker.text}"
    assert_match(%r{redis://127\.0\.0\.1:\d+/99 names db 99, which the server does not have \(ERR DB}, worker.text)
  end

  # Without a secret, anyone who can write to the server runs items on the
  # workers: said at a worker's start when the server is on another machine.
  def test_a_worker_without_a_secret_on_another_machines_server_warns_at_start
    config = ->(url, **options) { Heddle::Workers::Redis::Config.new(url: url, env: {}, **options) }
    assert config.call("redis://10.0.0.5:6379/0").unsigned_remote?
    assert config.call("redis://redis.example:6379/0").unsigned_remote?
    refute config.call("redis://10.0.0.5:6379/0", secret: "a secret of sixteen+").unsigned_remote?
    %w[127.0.0.1 127.3.4.5 localhost [::1]].each do |host|
      refute config.call("redis://#{host}:6379/0").unsigned_remote?
    end
    log = StringIO.new
    Heddle::Workers::Redis::Daemon.new(url: "redis://10.0.0.5:6379/0", logger: Logger.new(log)).__send__(:warn_unsigned)
    assert_match(%r{WARN .*no secret: anyone who can write to redis://10.0.0.5:6379/0 can have this worker run},
                 log.string)
  end

  def test_a_handler_file_that_raises_while_loading_ends_the_worker_in_one_line_naming_it
    { "boom.rb" => "Heddle.handler(:ok) { 1 }\nraise ArgumentError, 'bad config'", "typo.rb" => "def x(" }
      .each do |name, text|
        path = file(name, text)
        bad = RedisFixture::Worker.new(server, requires: [path])
        (@workers ||= []) << bad
        assert_equal 1, bad.wait.exitstatus
        assert_equal 1, bad.text.lines.size, "one line: #{bad.text}"
        said = /raised while loading: (ArgumentError: bad config \(.*#{name}:2|SyntaxError)/
        assert_match(/\Aheddle worker: --require #{Regexp.escape(path)} #{said}/, bad.text)
      end
  end

  def test_bad_limits_fail_at_the_call_and_at_a_workers_start
    error = assert_raises(ArgumentError) { redis_pool(:"test.square", server: server, limits: { digits: -1 }) }
    assert_match(/limits: digits must be an Integer from 1 to/, error.message)
    bad = worker("--limits", "bytes=many")
    assert_equal 2, bad.wait.exitstatus
    assert_match(/--limits bytes=many: write KEY=INTEGER/, bad.text)
  end

  def test_shutdown_deletes_the_won_keys
    worker.ready
    pool = redis_pool(:"test.square", server: server)
    3.times { pool.map([1, 2]) }
    pool.submit(3).value!(RedisFixture::WAIT)
    pool.shutdown
    client = server.client
    assert_empty client.call("KEYS", "heddle:pool:*"), "no key of the pool is left"
  ensure
    client&.close
  end
end
