# frozen_string_literal: true

require "test_helper"
require "socket"
require "timeout"
require_relative "bounded"

# Process.wait, Timeout.timeout and name resolution: each test shows that a plain blocking
# call inside a concurrent proc or a scheduled fiber suspends only that
# fiber: another proc, queued behind it, runs while it waits. Orders and
# counts only, never timings.
class SchedulerProcessTimeoutResolveTest < Minitest::Test
  include Bounded

  def test_process_wait_of_a_spawned_child
    log = []
    status = run_bounded do
      reader, writer = IO.pipe
      pid = Process.spawn("head", "-c", "1", in: reader, out: File::NULL)
      reader.close
      waiter = Heddle.concurrently do
        log << :waiting
        Process.wait2(pid).last.tap { log << :reaped }
      end
      Heddle.concurrently do
        3.times { sleep 0 }
        log << :releasing
        writer.write("x")
        writer.close
      end
      waiter.await_result
    end

    assert_predicate status, :success?
    assert_equal %i[waiting releasing reaped], log
  end

  def test_timeout_fires_in_a_waiting_fiber
    log = []
    run_bounded do
      Heddle.concurrently do
        log << :start
        Timeout.timeout(0.01) { sleep 5 }
      rescue Timeout::Error => e
        log << [:timed_out, e.message]
      end
      Heddle.concurrently { log << :other }
    end

    assert_equal [:start, :other, [:timed_out, "execution expired"]], log
  end

  def test_timeout_fires_in_a_queue_pop_and_leaves_the_queue_usable
    result = run_bounded do
      queue = Queue.new
      first = begin
        Timeout.timeout(0.01) { queue.pop }
      rescue Timeout::Error
        :timed_out
      end
      Heddle.concurrently { queue << :later }
      [first, queue.pop]
    end

    assert_equal %i[timed_out later], result
  end

  def test_timeout_that_does_not_fire_leaves_no_timer
    result = run_bounded do
      loop = Heddle::EventLoop.current
      before = loop.timer_count
      value = Timeout.timeout(5, ArgumentError, "never") do
        sleep 0.001
        :in_time
      end
      sleep 0.02 # a stale timer would fire here
      [value, loop.timer_count - before]
    end

    assert_equal [:in_time, 0], result
  end

  def test_timeout_with_a_custom_error
    error = assert_raises(IndexError) { run_bounded { Timeout.timeout(0.01, IndexError, "late") { sleep 1 } } }

    assert_equal "late", error.message
  end

  def test_getaddrinfo_lets_others_run
    expected = Addrinfo.getaddrinfo("localhost", 80, nil, :STREAM).map(&:ip_address).sort
    log = []
    addresses = run_bounded do
      resolver = Heddle.concurrently do
        log << :resolving
        Addrinfo.getaddrinfo("localhost", 80, nil, :STREAM).map(&:ip_address).sort.tap { log << :resolved }
      end
      Heddle.concurrently { log << :other }
      resolver.await_result
    end

    assert_equal expected, addresses
    assert_equal %i[resolving other resolved], log
  end

  def test_an_unknown_host_raises_socket_error
    assert_raises(SocketError) { run_bounded { Addrinfo.getaddrinfo("no-such-host.invalid", 80) } }
  end
end
