# frozen_string_literal: true

require "test_helper"
require "tempfile"
require_relative "bounded"

# The hooks Ruby 3.3 added (io_select, io_pread, io_pwrite, io_close) and the
# buffer offset it passes to io_read/io_write. The end-to-end tests run on
# every Ruby (on 3.1 Ruby does pread and select itself); the direct calls of
# a hook run where the running Ruby has it.
# rubocop:disable-next Lint/IncompatibleIoSelectWithFiberScheduler -- IO.select under the scheduler is what is tested
class SchedulerSelectAndPositionsTest < Minitest::Test
  include Bounded

  def setup
    @experimental = Warning[:experimental]
    Warning[:experimental] = false
  end

  # A writable buffer over +string+: Ruby 3.1's IO::Buffer.for is writable
  # and takes no block; 3.3's is read-only unless given a block.
  def with_string_buffer(string, &)
    buffer = IO::Buffer.for(string)
    buffer.readonly? ? IO::Buffer.for(string, &) : yield(buffer)
  end

  # Where Ruby keeps IO.select to itself (3.1), it blocks the whole thread.
  def needs_io_select_hook
    skip "Ruby #{RUBY_VERSION} does not hand IO.select to the scheduler" unless RubyHooks.io_select?
  end

  def teardown
    Warning[:experimental] = @experimental
  end

  def test_io_select_waits_only_its_fiber_until_another_fiber_writes
    needs_io_select_hook
    order = []
    result = run_bounded do
      reader, writer = IO.pipe
      Heddle.concurrently do
        order << :writer
        writer.write("x")
      end
      order << :select
      ready = IO.select([reader], nil, nil, 5)
      order << :ready
      [ready, reader.read(1)]
    end
    ready, byte = result

    assert_equal %i[select writer ready], order
    assert_equal 1, ready[0].size
    assert_equal "x", byte
  end

  def test_io_select_returns_nil_after_its_timeout_while_other_fibers_run
    needs_io_select_hook
    ticks = 0
    result = run_bounded do
      reader, _writer = IO.pipe
      Heddle.concurrently do
        3.times do
          ticks += 1
          sleep 0.001
        end
      end
      IO.select([reader], nil, nil, 0.05)
    end

    assert_nil result
    assert_equal 3, ticks
  end

  def test_io_select_with_timeout_zero_polls
    result = run_bounded do
      reader, writer = IO.pipe
      empty = IO.select([reader], nil, nil, 0)
      writer.write("y")
      [empty, IO.select([reader], [writer], nil, 0)]
    end
    empty, ready = result

    assert_nil empty
    assert_equal [1, 1, 0], ready.map(&:size)
  end

  def test_io_select_over_several_ios_returns_the_ready_originals
    needs_io_select_hook
    result = run_bounded do
      pipes = Array.new(3) { IO.pipe }
      Heddle.concurrently { pipes[1][1].write("z") }
      readers = pipes.map(&:first)
      ready, = IO.select(readers, nil, nil, 5)
      [ready, readers[1]]
    end
    ready, second = result

    assert_equal 1, ready.size
    assert_same second, ready[0]
  end

  def test_io_select_counts_data_in_the_read_buffer_as_ready
    result = run_bounded do
      reader, writer = IO.pipe
      writer.write("ab\ncd\n")
      reader.gets # Ruby reads both lines into the IO's buffer; the pipe is empty
      ready, = IO.select([reader], nil, nil, 5)
      [ready&.size, reader.gets]
    end

    assert_equal [1, "cd\n"], result
  end

  def test_io_select_with_exceptables_still_answers
    needs_io_select_hook
    result = run_bounded do
      reader, writer = IO.pipe
      Heddle.concurrently { writer.write("e") }
      IO.select([reader], nil, [reader], 5)
    end

    assert_equal 1, result[0].size
  end

  def test_io_select_rejects_a_closed_io_as_ruby_does
    error = assert_raises(IOError) do
      run_bounded do
        reader, _writer = IO.pipe
        reader.close
        IO.select([reader], nil, nil, 1)
      end
    end
    assert_match(/closed/, error.message)
  end

  def test_pread_and_pwrite_inside_the_loop
    Tempfile.create("heddle") do |file|
      file.write("0123456789")
      file.flush
      result = run_bounded do
        Heddle.concurrently { file.pwrite("ab", 4) }.await_result
        [file.pread(3, 1), file.pread(4, 3)]
      end

      assert_equal %w[123 3ab6], result
    end
  end

  # Ruby 3.3 calls an io_pwrite hook without the GVL (see Scheduler#io_pread): a
  # scheduler that has one leaves the thread hung at its exit.
  def test_pwrite_from_a_loop_in_a_thread_lets_the_thread_end
    Tempfile.create("heddle") do |file|
      file.write("0123456789")
      file.flush
      written = run_bounded { [file.pwrite("ab", 4), file.pwrite("c", 0)] }

      assert_equal [2, 1], written
      assert_equal "c123ab6789", File.read(file.path)
    end
  end

  def test_io_read_and_io_write_honour_a_buffer_offset
    result = run_bounded do
      reader, writer = IO.pipe
      source = IO::Buffer.for(+"..hello")
      written = Fiber.scheduler.io_write(writer, source, 5, 2)
      target = IO::Buffer.new(8)
      read = Fiber.scheduler.io_read(reader, target, 5, 3)
      [written, read, target.get_string(3, 5)]
    end

    assert_equal [5, 5, "hello"], result
  end

  def test_io_read_with_an_offset_waits_for_its_minimum
    result = run_bounded do
      reader, writer = IO.pipe
      Heddle.concurrently do
        writer.write("ab")
        sleep 0
        writer.write("cd")
      end
      target = IO::Buffer.new(8)
      [Fiber.scheduler.io_read(reader, target, 4, 2), target.get_string(2, 4)]
    end

    assert_equal [4, "abcd"], result
  end

  # On Ruby 3.1 a slice of a buffer over a String aborts the VM when the GC
  # collects it; a partial read into such a buffer must not make one.
  def test_partial_reads_into_a_string_buffer_survive_the_gc
    result = run_bounded do
      reader, writer = IO.pipe
      Heddle.concurrently do
        writer.write("ab")
        sleep 0
        writer.write("cd")
      end
      with_string_buffer(+"........") do |target|
        [Fiber.scheduler.io_read(reader, target, 4, 1), target.get_string(0, 8)]
      end
    end
    GC.start

    assert_equal [4, ".abcd..."], result
  end

  def test_io_pread_hook_directly
    skip "Ruby #{RUBY_VERSION} calls no io_pread hook" unless Heddle::Scheduler::BlockingFiber::OFFSETS

    Tempfile.create("heddle") do |file|
      file.write("0123456789")
      file.flush
      result = run_bounded do
        target = IO::Buffer.new(6)
        [Fiber.scheduler.io_pread(file, target, 2, 3, 1), target.get_string(1, 5)]
      end

      # at least 3 bytes, up to the rest of the buffer
      assert_equal [5, "23456"], result
    end
  end

  def test_io_close_wakes_a_reader_waiting_on_the_io
    result = run_bounded do
      reader, _writer = IO.pipe
      waiting = Heddle.concurrently do
        reader.read(1)
      rescue IOError => e
        e.class
      end
      Heddle.wait(0) # the reader is parked on the pipe
      closed = Fiber.scheduler.io_close(reader)
      [closed, reader.closed?, waiting.await_result(within: 5)]
    end

    assert_equal [true, true, IOError], result
  end

  def test_io_close_of_a_descriptor
    result = run_bounded do
      reader, writer = IO.pipe
      descriptor = IO.sysopen(File::NULL)
      Fiber.scheduler.io_close(descriptor)
      writer.close
      [reader.read, (IO.for_fd(descriptor, autoclose: false).fileno rescue :closed)] # rubocop:disable Style/RescueModifier
    end

    assert_equal ["", :closed], result
  end
end
