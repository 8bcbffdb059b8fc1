# frozen_string_literal: true

require "test_helper"
require "net/http"
require "socket"
require "timeout"
require_relative "bounded"

# Heddle.with_timeout: the block's wait raises
# Heddle::Evaluation::TimeoutError once the time has passed, whatever the
# wait (heddle's own, or a scheduler hook's), in whatever fiber. Orders and
# outcomes only: the timeouts are short, the bounds generous.
class SchedulerWithTimeoutTest < Minitest::Test
  include Bounded

  TIMEOUT = Heddle::Evaluation::TimeoutError

  def test_a_queue_pop_in_a_concurrent_proc
    outcome = run_bounded do
      queue = Queue.new
      evaluation = Heddle.concurrently do
        Heddle.with_timeout(0.01) { queue.pop }
      rescue TIMEOUT => e
        e.message
      end
      first = evaluation.await_result
      queue << :item
      [first, queue.pop] # the queue still works
    end

    assert_equal ["Heddle.with_timeout: the block still waited after 0.01 second(s)", :item], outcome
  end

  # Net::HTTP retries an idempotent request on Timeout::Error, so
  # Timeout.timeout does not bound it (docs/scheduler.md); with_timeout does.
  def test_net_http_against_a_server_that_never_answers
    server = TCPServer.new("127.0.0.1", 0)
    accepted = []
    acceptor = Thread.new { 2.times { accepted << server.accept } }
    message = run_bounded do
      uri = URI("http://127.0.0.1:#{server.addr[1]}/")
      assert_raises(TIMEOUT) { Heddle.with_timeout(0.05) { Net::HTTP.get(uri) } }.message
    end

    assert_match(/with_timeout/, message)
  ensure
    acceptor&.kill
    accepted.each(&:close)
    server&.close
  end

  # Timeout.timeout's hook defers Timeout::Error to the block's boundary, as
  # Ruby's own Timeout does, so Net::HTTP's retry on Timeout::Error cannot
  # swallow it: the error is Timeout's, not Net::ReadTimeout after the
  # read_timeout (it was, before).
  def test_timeout_timeout_around_net_http_in_heddle_run
    server = TCPServer.new("127.0.0.1", 0)
    accepted = []
    acceptor = Thread.new { 2.times { accepted << server.accept } }
    error_class = run_bounded(30) do
      http = Net::HTTP.new("127.0.0.1", server.addr[1])
      http.read_timeout = 5
      Timeout.timeout(0.05) { http.get("/") }
    rescue Timeout::Error, Net::ReadTimeout => e
      e.class
    end

    assert_equal Timeout::Error, error_class
  ensure
    acceptor&.kill
    accepted.each(&:close)
    server&.close
  end

  def test_a_rescue_in_the_block_does_not_swallow_the_timeout
    log = []
    outcome = run_bounded do
      Heddle.with_timeout(0.01) do
        sleep 5
      rescue StandardError => e
        log << e.class
      ensure
        log << :ensure
      end
    rescue TIMEOUT => e
      e.class
    end

    assert_equal [TIMEOUT, [:ensure]], [outcome, log]
  end

  def test_a_pipe_read_and_a_wait_on_a_thread_without_the_scheduler
    outcomes = bounded do
      reader, writer = IO.pipe
      waits = [-> { Heddle.await_readable(reader) }, -> { Heddle.wait(5) }, -> { Heddle.await_resume! }]
      outcomes = waits.map { |wait| outcome { Heddle.with_timeout(0.01) { wait.call } } }
      writer.write("x")
      outcomes << outcome { Heddle.with_timeout(5) { Heddle.await_readable(reader) && reader.read(1) } }
    end

    assert_equal [TIMEOUT, TIMEOUT, TIMEOUT, "x"], outcomes
  end

  def test_nested_timeouts_each_raise_at_their_own_time
    log = []
    run_bounded do
      Heddle.with_timeout(0.2) do
        log << seconds_in { Heddle.with_timeout(0.01) { sleep 5 } }
        Heddle.with_timeout(5) { sleep 5 }
      end
    rescue TIMEOUT => e
      log << e.message[/after (.*) second/, 1]
    end

    assert_equal %w[0.01 0.2], log
  end

  def test_a_block_that_finishes_in_time_leaves_no_timer
    outcome = run_bounded do
      loop = Heddle::EventLoop.current
      before = loop.timer_count
      value = Heddle.with_timeout(5) { sleep(0.001) && :done }
      [value, loop.timer_count - before, Heddle.with_timeout(Float::INFINITY) { :unlimited }]
    end

    assert_equal [:done, 0, :unlimited], outcome
  end

  def test_bad_seconds_are_refused_before_anything_is_armed
    refusals = bounded do
      loop = Heddle::EventLoop.current
      [[nil, TypeError], ["1", TypeError], [Complex(1, 1), TypeError],
       [-1, ArgumentError], [Float::NAN, ArgumentError]].map do |seconds, error_class|
        error = assert_raises(error_class) { Heddle.with_timeout(seconds) { :ran } }
        [error.message.include?("seconds") && error.message.include?(seconds.inspect), loop.timer_count]
      end
    end

    assert_equal [[true, 0]] * 5, refusals
  end

  private

  # The seconds named by the with_timeout error the block raises.
  def seconds_in
    yield
  rescue TIMEOUT => e
    e.message[/after (.*) second/, 1]
  end

  def outcome
    yield
  rescue TIMEOUT => e
    e.class
  end
end
