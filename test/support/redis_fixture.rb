# frozen_string_literal: true

require "socket"
require "tmpdir"
require "fileutils"
require "rbconfig"
require "heddle/workers/redis"

# Real redis-server and `heddle worker` processes for the Redis backend's
# tests: a server on 127.0.0.1 on a free port with a temporary directory,
# workers as child processes logging to files. Everything started is stopped
# (at the latest at exit).
module RedisFixture
  # What .ci/run installs when it is missing.
  INSTALL = "apt-get update && apt-get install -y redis-server"
  # Seconds a start or a stop may take on a loaded machine.
  WAIT = 30
  ROOT = File.expand_path("../..", __dir__)
  HANDLERS = File.join(__dir__, "redis_handlers.rb")

  class << self
    # @return [String, nil] why the Redis tests cannot run, or nil
    def missing
      return nil if system("command -v redis-server >/dev/null 2>&1")

      "redis-server is not installed (#{INSTALL})"
    end

    # Waits until the block is truthy, for at most `seconds`.
    # @return [Object] the block's value
    # @raise [RuntimeError] naming what did not happen
    def wait_for(what, seconds = WAIT, interval: 0.02)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
      loop do
        value = yield
        return value if value
        raise "gave up waiting #{seconds} s for #{what}" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

        sleep interval
      end
    end

    # @return [Server] one server shared by the tests that do not restart it
    def shared = @shared ||= Server.new.start

    # @return [Array<Worker>] two workers on the shared server, knowing redis_handlers.rb
    def shared_workers = @shared_workers ||= Array.new(2) { Worker.new(shared) }.each(&:ready)

    # Children to stop at exit.
    def started = @started ||= []
  end

  # One redis-server.
  class Server
    attr_reader :port, :dir

    # @param aof [Boolean] append-only file on (for restarts that keep the data)
    # @param args [Array<String>] more redis-server options (e.g. --requirepass)
    def initialize(aof: false, args: [])
      @aof = aof
      @args = args
      @dir = Dir.mktmpdir("heddle-redis")
      @port = free_port
      RedisFixture.started << self
    end

    # @return [String]
    def url = "redis://127.0.0.1:#{@port}/0"

    # @return [self]
    def start
      args = ["redis-server", *listen_args, "--bind", "127.0.0.1", "--dir", @dir, "--save", "",
              "--appendonly", @aof ? "yes" : "no", "--logfile", File.join(@dir, "redis.log"), *@args]
      @pid = Process.spawn(*args, %i[out err] => File::NULL)
      RedisFixture.wait_for("redis-server on port #{@port}") { ping }
      self
    end

    # Stops the server (SIGTERM: it writes its append-only file and exits).
    # @return [void]
    def stop
      return unless @pid

      Process.kill("TERM", @pid)
      Process.wait(@pid)
      @pid = nil
    rescue Errno::ESRCH, Errno::ECHILD
      @pid = nil
    end

    # @return [void]
    def restart
      stop
      start
    end

    # Stops the server and removes its directory.
    # @return [void]
    def destroy
      stop
      FileUtils.rm_rf(@dir)
    end

    # @return [RedisClient] a new connection for assertions
    # (heddle loads redis-client on first use; a test whose pool runs in another
    # process has not used it in this one.)
    def client(**options)
      Heddle::Workers::Redis::Client.load_gem
      RedisClient.config(url: url, protocol: 3, **options).new_client
    end

    private

    # Where it listens (a TLS server listens on a TLS port instead).
    def listen_args = ["--port", @port.to_s]

    def ping
      TCPSocket.open("127.0.0.1", @port) do |socket|
        socket.write("PING\r\n")
        socket.wait_readable(1) && socket.readpartial(64).match?(/PONG|NOAUTH/) # NOAUTH: up, with a password
      end
    rescue SystemCallError, IOError
      false
    end

    def free_port
      server = TCPServer.new("127.0.0.1", 0)
      server.addr[1]
    ensure
      server&.close
    end
  end

  # One `heddle worker` process.
  class Worker
    attr_reader :pid, :log

    # @param server [Server]
    # @param requires [Array<String>] handler files
    # @param args [Array<String>] more command-line options
    # @param env [Hash{String => String}] more of its environment (HEDDLE_SELECTOR ...)
    def initialize(server, requires: [HANDLERS], args: [], env: {})
      raise RedisFixture.missing if RedisFixture.missing

      @server = server
      @log = File.join(server.dir, "worker-#{object_id}.log")
      command = [RbConfig.ruby, *LibRoots::FLAGS, File.join(ROOT, "exe", "heddle"), "worker",
                 "--redis", server.url, *requires.flat_map { |f| ["--require", f] }, *args]
      @pid = Process.spawn(env, *command, %i[out err] => @log, chdir: ROOT)
      RedisFixture.started << self
    end

    # Waits until the worker has registered and serves.
    # @return [self]
    def ready
      RedisFixture.wait_for("worker #{@pid} to start (log: #{text})") do
        raise "worker #{@pid} exited: #{text}" unless alive?

        text.include?("serving")
      end
      sleep 0.05
      self
    end

    # @return [String] the log so far
    def text = File.exist?(@log) ? File.read(@log) : ""

    # @return [Boolean]
    def alive?
      Process.waitpid(@pid, Process::WNOHANG).nil? && true
    rescue Errno::ECHILD
      false
    end

    # @param signal [String]
    # @return [void]
    def signal(signal)
      Process.kill(signal, @pid)
    rescue Errno::ESRCH
      nil
    end

    # @return [Process::Status, nil] after the process ended (bounded wait)
    def wait
      RedisFixture.wait_for("worker #{@pid} to exit") { Process.waitpid2(@pid, Process::WNOHANG) }&.last
    rescue Errno::ECHILD
      nil
    end

    # Stops the worker: TERM twice (drain, then hand running entries back
    # at once), then KILL if it does not exit in time.
    # @return [void]
    def destroy
      signal("CONT")
      signal("TERM")
      sleep 0.05
      signal("TERM")
      wait
    rescue RuntimeError
      signal("KILL")
      Process.wait(@pid) rescue nil # rubocop:disable Style/RescueModifier -- best effort at exit
    end
  end

  # For test classes: skips without redis-server, makes pools on a server
  # with short timeouts and shuts them down after the test.
  module TestHelpers
    def setup
      super
      skip RedisFixture.missing if RedisFixture.missing
      @pools = []
    end

    def teardown
      @pools&.each { |pool| pool.shutdown(kill: true) }
      super
    end

    # @return [Heddle::Pool] on the shared server unless server: is given
    def redis_pool(handler, server: RedisFixture.shared, **options)
      pool = Heddle::Pool.new(worker: :redis, handler: handler, url: server.url, visibility_timeout: 1, ttl: 5,
                              reconnect_timeout: 5, **options)
      @pools << pool
      pool
    end

    # Runs the block in a thread and returns its value or error, failing the
    # test if it does not end within `seconds` (a hang).
    def bounded(seconds = RedisFixture::WAIT, &)
      thread = Thread.new(&)
      thread.report_on_exception = false
      raise Minitest::Assertion, "did not end within #{seconds} s: a hang" unless thread.join(seconds)

      thread.value
    end
  end

  # A redis-server of the test's own (a client to it in @client) and the
  # workers it starts, stopped after each test; for tests that write to the
  # pool's streams by hand.
  module OwnServer
    include TestHelpers

    def setup
      super
      @server = Server.new.start
      @client = @server.client
      @workers = []
    end

    def teardown
      super
      @client&.close
      @workers.each(&:destroy)
      @server&.destroy
    end

    # @param args [Array<String>] the worker's options
    # @return [Worker] started and serving
    def worker(*args) = Worker.new(@server, args: args).tap { |w| @workers << w }.ready

    # @return [Hash{Symbol => String}] the pool's key names
    def keys(pool) = pool.instance_variable_get(:@backend).keys

    # @return [Integer] the result batches the pool refused
    def refusals(pool) = pool.instance_variable_get(:@backend).refusals

    # @return [Thread] running the block, its error kept for {#outcome}
    def in_thread(&)
      thread = Thread.new(&)
      thread.report_on_exception = false
      thread
    end

    # @return [Object, StandardError] the thread's value or error; fails the test on a hang
    def outcome(thread)
      raise Minitest::Assertion, "the map did not end: a hang" unless thread.join(WAIT)

      thread.value
    rescue StandardError => e
      e
    end
  end
end

# After the tests, not at_exit: minitest/autorun runs the tests in an at_exit
# hook registered before this file's, so an at_exit hook here would run first
# and the servers and workers started by the tests would outlive them.
Minitest.after_run { RedisFixture.started.reverse_each(&:destroy) }
