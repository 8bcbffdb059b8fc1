# frozen_string_literal: true

require_relative "peers"
require "io/wait"
require "socket"

# io_wait(io, events, timeout), io_read(io, buffer, length, offset) and
# io_write(...): reads, writes and waits on pipes and sockets suspend only
# their fiber; end of file, a closed peer, a timeout and closing an IO
# another fiber waits on answer as they do without a scheduler.
class ComplianceIOTest < Minitest::Test
  include CompliancePeers

  compliance "read_waits_only_its_fiber_and_gathers_partial_writes" do
    log = []
    result = under_peer do
      reader, writer = IO.pipe
      Fiber.schedule do
        %w[ab cd ef].each do |part|
          log << part
          writer.write(part)
          sleep 0.001
        end
      end
      reader.read(6)
    end

    assert_equal "abcdef", result
    assert_equal %w[ab cd ef], log
  end

  compliance "readpartial_gets_and_eof" do
    result = under_peer do
      reader, writer = IO.pipe
      Fiber.schedule do
        writer.write("line one\nline two\n")
        writer.close
      end
      [reader.gets, reader.readpartial(100), reader.read, reader.eof?, reader.gets]
    end

    assert_equal ["line one\n", "line two\n", "", true, nil], result
  end

  compliance "write_larger_than_a_pipe_holds_waits_for_the_reader" do
    size = 1 << 20
    log = []
    result = under_peer do
      reader, writer = IO.pipe
      Fiber.schedule do
        writer.write("x" * size)
        log << :written
        writer.close
      end
      log << :reading
      reader.read.bytesize
    end

    assert_equal size, result
    assert_equal %i[reading written], log
  end

  compliance "read_nonblock_and_write_nonblock_do_not_wait" do
    result = under_peer do
      reader, writer = IO.pipe
      empty = reader.read_nonblock(1, exception: false)
      writer.write_nonblock("z")
      [empty, reader.read_nonblock(1)]
    end

    assert_equal [:wait_readable, "z"], result
  end

  compliance "wait_readable_times_out_while_others_run" do
    ticks = 0
    result = under_peer do
      reader, _writer = IO.pipe
      Fiber.schedule { 2.times { (ticks += 1) && sleep(0.001) } }
      reader.wait_readable(0.02)
    end

    assert_nil result
    assert_equal 2, ticks
  end

  # IO#timeout= (Ruby 3.2) inside a fiber: Ruby passes the hooks no timeout
  # and leaves the IO's to the scheduler, which raises IO::TimeoutError for
  # a read, a write, IO::Buffer and a wait with no limit of its own, as
  # IO#timeout= documents.
  compliance "io_timeout_raises_io_timeout_error" do
    skip "Ruby #{RUBY_VERSION} has no IO#timeout" unless IO.method_defined?(:timeout)
    result = under_peer do
      reader, = IO.pipe # empty
      _, writer = IO.pipe
      writer.write_nonblock("x" * (1 << 20), exception: false) # full
      [reader, writer].each { |io| io.timeout = 0.01 }
      [-> { reader.read(1) }, -> { writer.write("y") }, -> { IO::Buffer.new(1).read(reader, 1) },
       -> { reader.wait_readable }].map do |call|
        call.call
      rescue IO::TimeoutError => e
        e.class
      end
    end

    assert_equal [IO::TimeoutError] * 4, result
  end

  compliance "wait_for_both_directions_answers_the_ready_one" do
    result = under_peer do
      _, writer = IO.pipe
      writer.wait(IO::READABLE | IO::WRITABLE, 1)
    end

    # IO#wait returns the IO itself (Ruby 3.1) or the ready events (3.3) for
    # the events form: either way the writable end is ready.
    assert [IO::WRITABLE, true].include?(result) || result.is_a?(IO), "not ready: #{result.inspect}"
  end

  compliance "write_to_a_closed_reader_raises_epipe" do
    result = under_peer do
      reader, writer = IO.pipe
      reader.close
      writer.write("x")
    rescue Errno::EPIPE => e
      e.class
    end

    assert_equal Errno::EPIPE, result
  end

  # A difference (docs/scheduler.md): heddle wakes a fiber waiting on an IO
  # that another fiber closes, with IOError as Ruby does for threads; under
  # async (3.1 and 3.3, which call no io_close hook) the reader waits on.
  compliance "closing_an_io_another_fiber_reads_wakes_it_with_ioerror" do
    finished, result = finishes_within(@peer == :async ? 1 : Bounded::LIMIT) do
      reader, _writer = IO.pipe
      outcome = nil
      Fiber.schedule do
        reader.read(1)
        outcome = :read
      rescue IOError => e
        outcome = e.class
      end
      reader.close
      sleep 0.01
      outcome
    end

    assert_equal @peer == :heddle, finished
    assert_equal IOError, result if finished
  end

  compliance "tcp_echo_between_fibers" do
    result = under_peer do
      server = TCPServer.new("127.0.0.1", 0)
      Fiber.schedule do
        client = server.accept
        while (line = client.gets)
          client.write(line.upcase)
        end
        client.close
      end
      socket = TCPSocket.new("127.0.0.1", server.addr[1])
      replies = %w[one two].map do |word|
        socket.write("#{word}\n")
        socket.gets
      end
      socket.close
      replies
    end

    assert_equal %W[ONE\n TWO\n], result
  end

  compliance "unix_socket_pair_round_trips" do
    result = under_peer do
      left, right = UNIXSocket.pair
      Fiber.schedule { right.write(right.read(4).reverse) }
      left.write("abcd")
      left.read(4)
    end

    assert_equal "dcba", result
  end

  compliance "io_buffer_read_and_write" do
    result = under_peer do
      reader, writer = IO.pipe
      Fiber.schedule { IO::Buffer.for(+"data").write(writer, 4) }
      buffer = IO::Buffer.new(4)
      buffer.read(reader, 4)
      buffer.get_string
    end

    assert_equal "data", result
  end
end
