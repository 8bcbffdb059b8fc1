# frozen_string_literal: true

require "English"
require "test_helper"
require "net/http"
require "socket"
require_relative "bounded"

# Heddle.with_timeout bounds a blocking call in every place a block can run:
# it never silently does nothing. Each block blocks on a pipe nobody writes;
# the tests assert the error and that the block did not get past the read,
# never the time it took.
class SchedulerWithTimeoutEverywhereTest < Minitest::Test
  include Bounded

  TIMEOUT = Heddle::Evaluation::TimeoutError

  def setup
    @reader, @writer = IO.pipe
    @log = []
  end

  def teardown
    @reader.close
    @writer.close
  end

  def test_a_plain_thread_outside_heddle_run
    assert_equal([TIMEOUT, [:ensure]], bounded { timed_read })
  end

  # The issue's case: Net::HTTP outside Heddle.run against a server that
  # accepts and never answers (Net::HTTP retries a GET on Timeout::Error;
  # the unwinding is not one, so the retry cannot swallow it).
  def test_net_http_outside_heddle_run
    server = TCPServer.new("127.0.0.1", 0)
    accepted = []
    acceptor = Thread.new { 2.times { accepted << server.accept } }
    outcome = bounded do
      uri = URI("http://127.0.0.1:#{server.addr[1]}/")
      outcome_of { Heddle.with_timeout(0.05) { Net::HTTP.get(uri) && (@log << :answered) } }
    end

    assert_equal [TIMEOUT, []], [outcome, @log]
  ensure
    acceptor&.kill
    accepted&.each(&:close)
    server&.close
  end

  def test_a_fiber_without_a_scheduler
    assert_equal([TIMEOUT, [:ensure]], bounded { Fiber.new { timed_read }.resume })
  end

  def test_a_concurrent_proc_outside_heddle_run
    assert_equal([TIMEOUT, [:ensure]], bounded { Heddle.concurrently { timed_read }.await_result })
  end

  def test_a_blocking_fiber_inside_heddle_run
    assert_equal([TIMEOUT, [:ensure]], run_bounded { Fiber.new(blocking: true) { timed_read }.resume })
  end

  def test_under_heddles_scheduler
    assert_equal([TIMEOUT, [:ensure]], run_bounded { timed_read })
  end

  # The read blocks the root fiber while a concurrent proc waits on the
  # loop: the watchdog's raise lands in the root fiber, and the proc is
  # untouched and finishes at the next wait.
  def test_a_proc_waiting_on_the_loop_is_not_hit
    outcome = bounded do
      sleeper = Heddle.concurrently { Heddle.wait(0.001) && :slept }
      [timed_read, sleeper.await_result]
    end

    assert_equal [[TIMEOUT, [:ensure]], :slept], outcome
  end

  def test_nested_timeouts_outside_heddle_run_each_raise_their_own
    outcome = bounded do
      Heddle.with_timeout(5) do
        inner = timed_read
        [inner, Heddle.with_timeout(5) { :in_time }]
      end
    end

    assert_equal [[TIMEOUT, [:ensure]], :in_time], outcome
  end

  def test_under_another_fiber_scheduler_its_timeout_after_bounds_the_block
    outcome = bounded do
      scheduler = ForeignScheduler.new
      Fiber.set_scheduler(scheduler)
      Fiber.schedule { @log << outcome_of { Heddle.with_timeout(0.5) { :never } } }
      [@log, scheduler.timeouts]
    end

    assert_equal [[TIMEOUT], [[0.5, TIMEOUT]]], outcome
  end

  # timeout_after is optional in Fiber::Scheduler: without it nothing could
  # bound the block, so it is refused before the block runs.
  def test_under_a_scheduler_without_timeout_after_it_refuses_at_once
    outcome = bounded do
      Fiber.set_scheduler(BareScheduler.new)
      Fiber.schedule { @log << (Heddle.with_timeout(0.5) { @log << :ran } rescue $ERROR_INFO) } # rubocop:disable Style/RescueModifier
      @log
    end

    assert_equal [Heddle::Error], outcome.map(&:class)
    assert_match(/BareScheduler: that Fiber scheduler has no timeout_after/, outcome[0].message)
  end

  # Blocks that end just as their time runs out: a raise the watchdog
  # queued must never land after with_timeout returned.
  def test_no_raise_escapes_a_block_that_ended_in_time
    outcome = bounded do
      results = Array.new(300) { outcome_of { Heddle.with_timeout(0.0005) { busy(2_000) } } }
      sleep 0.01 # a stray raise would land here
      [results.uniq - [:done, TIMEOUT], Heddle::Scheduler::Watchdog.size]
    end

    assert_equal [[], 0], outcome
  end

  def test_a_block_in_time_leaves_no_watch
    outcome = bounded { [Array.new(3) { Heddle.with_timeout(5) { :ok } }, Heddle::Scheduler::Watchdog.size] }

    assert_equal [%i[ok ok ok], 0], outcome
  end

  def test_bad_seconds_are_refused_at_the_door_outside_heddle_run
    refusals = bounded do
      [[nil, TypeError], [:soon, TypeError], [-0.5, ArgumentError], [Float::NAN, ArgumentError]].map do |seconds, klass|
        error = assert_raises(klass) { Heddle.with_timeout(seconds) { @log << :ran } }
        [error.message.start_with?("with_timeout: seconds must be"), Heddle::Scheduler::Watchdog.size]
      end
    end

    assert_equal [[[true, 0]] * 4, []], [refusals, @log]
  end

  # The parent's watchdog thread and watches stay in the parent: a child
  # forked while one is pending gets a watchdog of its own.
  def test_a_forked_child_bounds_its_own_blocking_call
    skip "needs fork" unless Process.respond_to?(:fork)

    parent_wait = Thread.new { timed_read_for(5) }
    sleep 0.01 until Heddle::Scheduler::Watchdog.size == 1
    pid = fork { exit!(timed_read == [TIMEOUT, [:ensure]] ? 0 : 1) }
    _, status = Process.wait2(pid)
    @writer.write("x")

    assert_equal [true, nil, [:ensure]], [status.success?, parent_wait.value, @log]
  end

  private

  def timed_read_for(seconds)
    Heddle.with_timeout(seconds) { @reader.read(1) && nil }
  ensure
    @log << :ensure
  end

  # A read of the pipe nobody writes, bounded: the error's class, and what
  # the block logged (its ensure ran; it never got past the read).
  def timed_read
    error = outcome_of do
      Heddle.with_timeout(0.05) do
        @reader.read(1)
        @log << :read
      ensure
        @log << :ensure
      end
    end
    [error, @log.dup].tap { @log.clear }
  end

  def outcome_of
    yield
  rescue TIMEOUT => e
    e.class
  end

  def busy(count)
    count.times { nil }
    :done
  end

  # The least Fiber scheduler: enough to run a fiber and to record the
  # timeout_after calls Heddle.with_timeout hands it.
  class ForeignScheduler
    attr_reader :timeouts

    def initialize
      @timeouts = []
    end

    def fiber(&)
      Fiber.new(blocking: false, &).tap(&:resume)
    end

    def timeout_after(duration, exception_class, message)
      @timeouts << [duration, exception_class]
      raise exception_class, message
    end

    def block(*) = raise(NotImplementedError)
    def unblock(*) = nil
    def kernel_sleep(*) = raise(NotImplementedError)
    def io_wait(*) = raise(NotImplementedError)
    def close = nil
  end

  # A Fiber scheduler without the optional timeout_after hook.
  class BareScheduler < ForeignScheduler
    undef_method :timeout_after
  end
end
