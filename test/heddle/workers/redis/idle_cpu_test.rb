# frozen_string_literal: true

require "test_helper"
require "tmpdir"

# The idle-CPU family, the Redis backend's part, on a redis-server of its
# own: an idle `heddle worker` of each kind (its whole process tree: a
# process worker's lane processes count), a worker serving a pool that has
# nothing to run, and a caller waiting in Pool#map for items that wait, each
# spend at most CpuMeter::IDLE_SHARE of a core. The server itself is not
# measured: it is not heddle's. The workers beat every half second by design
# (docs/redis.md); a beat costs little, a poll that does not sleep a core.
class RedisIdleCpuTest < Minitest::Test
  include RedisFixture::TestHelpers
  include IdleCpu

  # No pool is ever made in it: its workers stay idle.
  IDLE = "idle-cpu"
  # The pools of this file live here, served by one thread worker.
  BUSY = "idle-cpu-busy"
  # The daemons, by name: [extra options, environment].
  DAEMONS = {
    thread: [["--namespace", IDLE], {}],
    fiber_select: [["--namespace", IDLE, "--worker", "fiber", "--concurrency", "2"], { "HEDDLE_SELECTOR" => "select" }],
    fiber_nio4r: [["--namespace", IDLE, "--worker", "fiber", "--concurrency", "2"], { "HEDDLE_SELECTOR" => "nio4r" }],
    fiber_epoll: [["--namespace", IDLE, "--worker", "fiber", "--concurrency", "2"], { "HEDDLE_SELECTOR" => "epoll" }],
    process: [["--namespace", IDLE, "--worker", "process", "--concurrency", "2"], {}],
    busy: [["--namespace", BUSY, "--concurrency", "2"], {}]
  }.freeze
  # Seconds for the daemons to be past their start (lane processes forked,
  # connected, subscribed, a lane's first one-second wait for pools over,
  # and under YJIT every path of an idle beat compiled: IdleCpu.steady_env)
  # before the first window.
  STARTED = 2.0
  # Seconds of a window: two of a worker's beats (Heartbeat::BEAT). A window
  # shorter than a beat measures where in its beat each process happens to be.
  WINDOW = 1.0

  class << self
    # @return [RedisFixture::Server] this file's server, started on first use
    def server = @server ||= RedisFixture::Server.new.start

    # The daemons, all started at once on first use (a start takes a second
    # or so of CPU each), stopped after the run with everything RedisFixture
    # started.
    # @return [Hash{Symbol => RedisFixture::Worker}]
    def daemons
      @daemons ||= begin
        epoll = Heddle::EventLoop::Selectors::EpollWatch.available?
        started = DAEMONS.reject { |name, _| name == :fiber_epoll && !epoll }.transform_values do |(args, env)|
          RedisFixture::Worker.new(server, args: args, env: IdleCpu.steady_env.merge(env))
        end
        started.each_value(&:ready)
        sleep STARTED
        started
      end
    end

    # Stops the daemons all at once (a drain takes a second or so each);
    # RedisFixture's own stop then finds them gone.
    # @return [void]
    def stop_daemons
      @daemons&.values&.map { |worker| Thread.new { worker.destroy } }&.each(&:join)
    end
  end

  # Registered after RedisFixture's, so it runs first.
  Minitest.after_run { stop_daemons }

  def test_an_idle_thread_worker = assert_idle_daemon(:thread)

  def test_an_idle_fiber_worker_on_select = assert_idle_daemon(:fiber_select)

  def test_an_idle_fiber_worker_on_nio4r
    skip "nio4r does not load" unless Heddle::EventLoop::Selectors::NIOWatch.available?
    assert_idle_daemon(:fiber_nio4r)
  end

  def test_an_idle_fiber_worker_on_epoll
    skip "epoll in C is not available" unless Heddle::EventLoop::Selectors::EpollWatch.available?
    assert_idle_daemon(:fiber_epoll)
  end

  def test_an_idle_process_worker = assert_idle_daemon(:process)

  # The worker's lanes look for entries to take over, and its heartbeat
  # keeps the pool's directory, while the pool has nothing to run.
  def test_a_worker_serving_a_pool_with_nothing_to_run
    worker = self.class.daemons.fetch(:busy)
    pool = busy_pool(:"test.square")
    assert_equal [4], pool.map([2]) # served: the lanes read its stream now
    released = Thread::Queue.new
    share, value = CpuMeter.share_while_waiting(-> { released << true }, pids: -> { [worker.pid] }, window: WINDOW) do
      released.pop && pool.size
    end
    assert_operator value, :>=, 1
    assert_idle share, "a heddle worker serving a pool with nothing to run"
  end

  # The caller only (its collector thread reads results, renews the pool's
  # keys and looks for workers): the items poll a file in the worker.
  def test_a_caller_waiting_for_results
    self.class.daemons
    pool = busy_pool(:"test.gate")
    Dir.mktmpdir do |dir|
      gate = File.join(dir, "gate")
      share, value = CpuMeter.share_while_waiting(-> { File.write(gate, "") }, window: WINDOW) do
        pool.map([gate, gate])
      end
      assert_equal [true, true], value
      assert_idle share, "a worker: :redis caller waiting in Pool#map"
    end
  end

  private

  def assert_idle_daemon(name)
    worker = self.class.daemons.fetch(name)
    released = Thread::Queue.new
    share, alive = CpuMeter.share_while_waiting(-> { released << true }, pids: -> { [worker.pid] }, window: WINDOW) do
      released.pop && worker.alive?
    end
    assert alive, "the #{name} worker is alive (log: #{worker.text})"
    assert_idle share, "an idle heddle worker (#{name})"
  end

  # A pool with the defaults a program gets (visibility timeout, ttl), in BUSY.
  def busy_pool(handler)
    pool = Heddle::Pool.new(worker: :redis, handler: handler, url: self.class.server.url, namespace: BUSY)
    @pools << pool
    pool
  end
end
