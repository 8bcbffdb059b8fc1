# frozen_string_literal: true

require "test_helper"
require "socket"
require_relative "bounded"

# io_read / io_write with Ruby 3.1's semantics: length is the minimum to
# transfer (0: any progress), the result is a byte count or -errno.
class SchedulerTest < Minitest::Test
  include Bounded

  EAGAIN = -Errno::EAGAIN::Errno

  # IO::Buffer warns that it is experimental on first use; the hooks get
  # one from Ruby on every read and write anyway.
  def setup
    @experimental = Warning[:experimental]
    Warning[:experimental] = false
  end

  def teardown
    Warning[:experimental] = @experimental
  end

  def test_io_read_with_length_zero_returns_eagain_instead_of_waiting
    result = run_bounded do
      reader, _writer = IO.pipe
      Fiber.scheduler.io_read(reader, IO::Buffer.new(8), 0)
    end

    assert_equal EAGAIN, result
  end

  def test_io_read_with_a_minimum_waits_for_it
    result = run_bounded do
      reader, writer = IO.pipe
      Heddle.concurrently do
        writer.write("ab")
        sleep 0
        writer.write("cd")
      end
      buffer = IO::Buffer.new(8)
      [Fiber.scheduler.io_read(reader, buffer, 4), buffer.get_string(0, 4)]
    end

    assert_equal [4, "abcd"], result
  end

  def test_io_read_at_end_of_file_returns_zero
    result = run_bounded do
      reader, writer = IO.pipe
      writer.close
      Fiber.scheduler.io_read(reader, IO::Buffer.new(8), 1)
    end

    assert_equal 0, result
  end

  def test_io_write_reports_epipe_as_a_negative_errno
    result = run_bounded do
      reader, writer = IO.pipe
      reader.close
      Fiber.scheduler.io_write(writer, IO::Buffer.for("data"), 0)
    end

    assert_equal(-Errno::EPIPE::Errno, result)
  end

  def test_read_nonblock_raises_instead_of_blocking
    result = run_bounded do
      reader, writer = IO.pipe
      empty = begin
        reader.read_nonblock(4)
      rescue IO::EAGAINWaitReadable
        :would_block
      end
      writer.write("xy")
      [empty, reader.read_nonblock(4), reader.read_nonblock(4, exception: false)]
    end

    assert_equal [:would_block, "xy", :wait_readable], result
  end

  def test_end_of_file_and_broken_pipe_surface_as_ruby_errors
    result = run_bounded do
      reader, writer = IO.pipe
      writer.close
      eof = [reader.read, reader.read(1)]
      other_reader, other_writer = IO.pipe
      other_reader.close
      epipe = assert_raises(Errno::EPIPE) { other_writer.write("x") }
      [eof, epipe.class]
    end

    assert_equal [["", nil], Errno::EPIPE], result
  end

  def test_buffered_writes_flush_through_the_hook_intact
    lines = run_bounded do
      reader, writer = IO.pipe
      writer.sync = false
      Heddle.concurrently do
        200.times { |i| writer.print("line #{i}\n") }
        writer.close
      end
      reader.readlines(chomp: true)
    end

    assert_equal Array.new(200) { |i| "line #{i}" }, lines
  end

  def test_io_buffer_read_and_write_use_the_hooks
    result = run_bounded do
      reader, writer = IO.pipe
      out = IO::Buffer.for(+"hello")
      written = out.write(writer, 5)
      into = IO::Buffer.new(5)
      [written, into.read(reader, 5), into.get_string]
    end

    assert_equal [5, 5, "hello"], result
  end

  # IO#read's own wait in a fiber: IO#timeout= bounds it as without a
  # scheduler (Ruby passes the hook no timeout and leaves the IO's to it).
  def test_io_timeout_bounds_a_read_and_a_write
    needs_io_timeout
    result = run_bounded do
      reader, = IO.pipe # empty
      _, writer = IO.pipe
      writer.write_nonblock("x" * (1 << 20), exception: false) # full
      [reader, writer].each { |io| io.timeout = 0.01 }
      [timed_out { reader.read(1) }, timed_out { reader.gets }, timed_out { writer.write("y") },
       timed_out { writer.puts("y") }]
    end

    assert_equal [IO::TimeoutError] * 4, result
  end

  # A transfer with a minimum length waits inside the hook, and IO::Buffer
  # has no wait of its own: the hook raises.
  def test_io_timeout_bounds_io_buffer_read_and_write
    needs_io_timeout
    result = run_bounded do
      reader, = IO.pipe # empty
      _, writer = IO.pipe
      writer.write_nonblock("x" * (1 << 20), exception: false) # full
      [reader, writer].each { |io| io.timeout = 0.01 }
      [timed_out { IO::Buffer.new(1).read(reader, 1) }, timed_out { IO::Buffer.new(8).write(writer, 8) }]
    end

    assert_equal [IO::TimeoutError] * 2, result
  end

  # IO#wait_readable with no limit waits io.timeout and raises, as IO#timeout=
  # documents; a limit given to the call is the call's (nil when it passes).
  def test_io_timeout_bounds_wait_readable_unless_the_call_gives_a_limit
    needs_io_timeout
    result = run_bounded do
      reader, = IO.pipe
      reader.timeout = 0.01
      given = reader.wait_readable(0.01)
      reader.timeout = 60
      [timed_out { reader.dup.tap { |io| io.timeout = 0.01 }.wait_readable }, given, reader.wait_readable(0.01)]
    end

    assert_equal [IO::TimeoutError, nil, nil], result
  end

  # IO::Buffer#read with a minimum length waits inside the hook: a
  # with_timeout around it unwinds it there.
  def test_with_timeout_bounds_io_buffer_read_of_a_pipe_nobody_writes
    result = run_bounded do
      reader, _writer = IO.pipe
      Heddle.with_timeout(0.01) { IO::Buffer.new(1).read(reader, 1) }
    rescue Heddle::Evaluation::TimeoutError => e
      e.class
    end

    assert_equal Heddle::Evaluation::TimeoutError, result
  end

  # A pipe heddle's C path took for a stream, reopened onto a file (IO#reopen
  # keeps the descriptor's number): it is read as a file from then on.
  def test_a_pipe_reopened_onto_a_file_after_use_reads_the_file
    result = run_bounded do
      reader, writer = IO.pipe
      writer.write("p")
      first = reader.read(1)
      File.open(__FILE__) { |file| reader.reopen(file) }
      [first, reader.read(22)]
    end

    assert_equal ["p", "# frozen_string_litera"], result
  end

  def test_without_io_hooks_ruby_reads_and_writes_itself_and_waits_through_io_wait
    log = []
    scheduler, data = bounded do
      Fiber.set_scheduler(Heddle::Scheduler.new(io_hooks: false))
      Heddle.run { [Fiber.scheduler, read_while_written(log)] }
    ensure
      Fiber.set_scheduler(nil)
    end

    refute_respond_to scheduler, :io_read
    assert_equal "hello", data
    assert_equal %i[reading writing read], log
  end

  private

  def needs_io_timeout
    skip "Ruby #{RUBY_VERSION} has no IO#timeout" unless IO.method_defined?(:timeout)
  end

  # @return [Class, Object] the error's class, or the block's value
  def timed_out
    yield
  rescue IO::TimeoutError => e
    e.class
  end

  def read_while_written(log)
    reader, writer = IO.pipe
    read = Heddle.concurrently do
      log << :reading
      reader.read(5).tap { log << :read }
    end
    Heddle.concurrently do
      log << :writing
      writer.write("hello")
    end
    read.await_result
  end
end

# An IO closed by another thread while a fiber of Heddle.run waits on it:
# the fiber sees IOError (closed stream), as a thread blocked on it would, on
# either selector (a class per back end below) and either IO path
# (native_io_test.rb runs this file again in pure Ruby).
module IOClosedUnderAWait
  include OnIOWatchBackend

  def setup
    @experimental = Warning[:experimental]
    Warning[:experimental] = false
  end

  def teardown
    Warning[:experimental] = @experimental
  end

  def test_a_read_raises_ioerror
    assert_equal :closed, closed_under(:reader) { |reader, _| reader.read(1) }
  end

  def test_a_write_raises_ioerror
    assert_equal :closed, closed_under(:writer) { |_, writer| writer.write("y" * 65_536) }
  end

  def test_io_buffer_read_raises_ioerror
    assert_equal :closed, closed_under(:reader) { |reader, _| IO::Buffer.new(4).read(reader, 4) }
  end

  def test_io_buffer_write_raises_ioerror
    assert_equal :closed, closed_under(:writer) { |_, writer| IO::Buffer.new(65_536).write(writer, 65_536) }
  end

  def test_wait_readable_raises_ioerror
    assert_equal :closed, closed_under(:reader) { |reader, _| reader.wait_readable }
  end

  def test_a_socket_read_raises_ioerror
    assert_equal :closed, closed_under(:reader, UNIXSocket.pair) { |reader, _| reader.read(1) }
  end

  private

  # Runs the block in Heddle.run while another thread closes one end.
  # @return [Object, :closed] the block's value, or :closed for IOError
  def closed_under(side, ends = IO.pipe)
    reader, writer = ends
    writer.write_nonblock("x" * (1 << 20), exception: false) if side == :writer # full
    on_backend do
      closer = Thread.new do
        sleep 0.02
        (side == :reader ? reader : writer).close
      end
      outcome = closed { Heddle.run { yield reader, writer } }
      closer.join
      outcome
    end
  ensure
    ends.each { |io| io.close unless io.closed? }
  end

  # Ruby says "closed stream", or "stream closed in another thread" to a
  # thread it finds waiting on the descriptor.
  def closed
    yield
  rescue IOError => e
    raise unless ["closed stream", "stream closed in another thread"].include?(e.message)

    :closed
  end
end

class IOClosedUnderAWaitSelectTest < Minitest::Test
  include IOClosedUnderAWait

  def backend = Heddle::EventLoop::Selectors::SelectWatch
end

class IOClosedUnderAWaitNIOTest < Minitest::Test
  include IOClosedUnderAWait

  def backend = Heddle::EventLoop::Selectors::NIOWatch

  def setup
    super
    skip "nio4r does not load: #{backend.load_error}" unless backend.available?
  end
end

class IOClosedUnderAWaitEpollTest < Minitest::Test
  include IOClosedUnderAWait

  def backend = Heddle::EventLoop::Selectors::EpollWatch

  def setup
    super
    skip "epoll in C is not available: #{backend.load_error}" unless backend.available?
  end
end
