# frozen_string_literal: true

require "test_helper"
require "socket"
require "timeout"
require "io/wait"
require_relative "bounded"

# sleep, pipes and sockets: each test shows that a plain blocking
# call inside a concurrent proc or a scheduled fiber suspends only that
# fiber: another proc, queued behind it, runs while it waits. Orders and
# counts only, never timings.
class SchedulerIOWaitsTest < Minitest::Test
  include Bounded

  def test_sleep_lets_others_run
    log = []
    run_bounded do
      sleeper = Heddle.concurrently do
        log << :sleeping
        sleep 0.02
        log << :woke
      end
      Fiber.schedule do
        log << :fiber
        sleep 0.01
        log << :fiber_woke
      end
      Heddle.concurrently { log << :other }
      sleeper.await_result
    end

    assert_equal %i[fiber sleeping other fiber_woke woke], log
  end

  def test_sleep_zero_takes_turns
    log = []
    run_bounded do
      2.times do |id|
        Heddle.concurrently do
          3.times do |i|
            log << [id, i]
            sleep 0
          end
        end
      end
    end

    assert_equal [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2], [1, 2]], log
  end

  def test_pipe_read_waits_for_the_writer
    log = []
    data = run_bounded do
      reader, writer = IO.pipe
      read = Heddle.concurrently do
        log << :reading
        reader.read(5).tap { log << :read }
      end
      Heddle.concurrently do
        log << :writing
        writer.write("hello")
        log << :written
      end
      read.await_result
    end

    assert_equal "hello", data
    assert_equal %i[reading writing written read], log
  end

  def test_pipe_write_of_more_than_the_pipe_holds_interleaves_with_the_reader
    payload = Random.new(1).bytes(1_000_000)
    chunks = 0
    received = run_bounded do
      reader, writer = IO.pipe
      Heddle.concurrently do
        writer.write(payload)
        writer.close
      end
      Heddle.concurrently do
        buffer = +""
        loop do
          buffer << reader.readpartial(65_536)
          chunks += 1
        end
      rescue EOFError
        buffer
      end.await_result
    end

    assert_equal payload, received
    assert_operator chunks, :>, 1, "the reader must have run while the writer waited for room"
  end

  def test_gets_and_puts_through_the_hooks
    lines = run_bounded do
      reader, writer = IO.pipe
      Heddle.concurrently do
        3.times do |i|
          writer.puts "line #{i}"
          sleep 0
        end
        writer.close
      end
      Heddle.concurrently { reader.each_line.map(&:chomp) }.await_result
    end

    assert_equal ["line 0", "line 1", "line 2"], lines
  end

  def test_unix_socket_ping_pong
    log = []
    run_bounded do
      left, right = UNIXSocket.pair
      Heddle.concurrently do
        3.times do |i|
          right.write(left_message = right.readpartial(10))
          log << [:pong, i, left_message]
        end
      end
      Heddle.concurrently do
        3.times do |i|
          left.write("ping#{i}")
          log << [:ping, i, left.readpartial(10)]
        end
      end.await_result
    end

    expected = 3.times.flat_map { |i| [[:pong, i, "ping#{i}"], [:ping, i, "ping#{i}"]] }

    assert_equal expected, log
  end

  def test_tcp_accept_connect_and_echo_on_localhost
    log = []
    reply = run_bounded do
      server = TCPServer.new("127.0.0.1", 0)
      port = server.addr[1]
      Heddle.concurrently do
        log << :accepting
        client = server.accept
        log << :accepted
        client.write(client.readpartial(100).upcase)
        client.close
      end
      Heddle.concurrently do
        log << :connecting
        socket = TCPSocket.new("127.0.0.1", port)
        socket.write("echo")
        socket.read.tap { socket.close }
      end.await_result
    end

    assert_equal "ECHO", reply
    assert_equal %i[accepting connecting accepted], log
  end

  # IO#wait_readable and Heddle.await_readable suspend only the fiber.
  # IO.select does too where Ruby hands it to the scheduler (3.3, io_select);
  # Ruby 3.1's calls no hook and blocks the whole thread (docs/scheduler.md).
  def test_io_select_suspends_only_its_fiber_where_ruby_hands_it_over
    waits = {
      select: ->(reader) { IO.select([reader], nil, nil, 0.01) }, # rubocop:disable Lint/IncompatibleIoSelectWithFiberScheduler
      wait_readable: ->(reader) { reader.wait_readable(0.01) },
      await_readable: ->(reader) { Heddle.await_readable(reader, within: 0.01) }
    }
    orders = waits.transform_values { |wait| order_around(wait) }

    select = RubyHooks.io_select? ? %i[other waited] : %i[waited other]
    expected = { select: select, wait_readable: %i[other waited], await_readable: %i[other waited] }

    assert_equal expected, orders
  end

  private

  def order_around(wait)
    log = []
    run_bounded do
      reader, _writer = IO.pipe
      Heddle.concurrently do
        wait.call(reader)
        log << :waited
      end
      Heddle.concurrently { log << :other }
    end
    log
  end
end
