# frozen_string_literal: true

require_relative "peers"

# IOs in blocking mode (+io.nonblock = false+, an IO.for_fd or inherited
# descriptor) read and written in a non-blocking fiber: Ruby calls io_read /
# io_write for them as for any IO, and a scheduler must not let the system
# call block the thread (under heddle it once froze every fiber, and on
# Ruby 3.1 the process ignored SIGTERM). Each case runs in a fresh Ruby, as a
# regression blocks the VM there. The descriptor is left in the mode it had.
class ComplianceBlockingModeTest < Minitest::Test
  include CompliancePeers

  PRELUDE = <<~RUBY
    require "io/nonblock"
    require "socket"
  RUBY

  compliance "read_of_a_blocking_pipe_lets_the_other_fiber_run" do
    order = in_fresh_peer(<<~RUBY, prelude: PRELUDE)
      order = []
      reader, writer = IO.pipe
      reader.nonblock = false
      writer.nonblock = false
      Fiber.schedule { order << :reading << reader.read(5) << reader.nonblock? }
      Fiber.schedule { order << :other; sleep 0.001; writer.write("hello"); order << :wrote }
      order
    RUBY

    # The runners return once every scheduled fiber ended.
    assert_equal [:reading, :other, :wrote, "hello", false], order
  end

  compliance "write_larger_than_a_blocking_socket_takes_waits_only_its_fiber" do
    # io-event 1.11 (under async 2.23, the newest for Ruby 3.1) blocks the
    # thread in this write for good; io-event 1.22 (Ruby 3.3) does not.
    skip "async #{async_version} blocks the thread here (docs/scheduler.md)" if @peer == :async && old_io_event?
    order = in_fresh_peer(<<~RUBY, prelude: PRELUDE)
      order = []
      left, right = UNIXSocket.pair
      [left, right].each { |socket| socket.nonblock = false }
      bytes = "x" * (1 << 20) # more than the socket buffers hold: write(2) would block
      Fiber.schedule { order << :writing; left.write(bytes); order << :written }
      Fiber.schedule { order << :reader << right.read(bytes.bytesize).bytesize << left.nonblock? }
      order
    RUBY

    assert_equal [:writing, :reader, :written, 1 << 20, false], order
  end

  # heddle asks a descriptor's mode once per IO and remembers the
  # non-blocking ones (docs/scheduler.md): a descriptor number freed and
  # reused by a blocking-mode IO belongs to a new IO, asked again.
  compliance "a_descriptor_reused_in_blocking_mode_is_asked_again" do
    order = in_fresh_peer(<<~RUBY, prelude: PRELUDE)
      order = []
      old_reader, old_writer = IO.pipe
      old_writer.write("a")
      old_reader.read(1) # read once while non-blocking
      numbers = [old_reader.fileno, old_writer.fileno]
      [old_reader, old_writer].each(&:close)
      reader, writer = IO.pipe
      order << ([reader.fileno, writer.fileno] == numbers)
      reader.nonblock = false
      Fiber.schedule { order << :reading << reader.read(5) }
      Fiber.schedule { order << :other; sleep 0.001; writer.write("hello") }
      order
    RUBY

    assert_equal [true, :reading, :other, "hello"], order
  end

  # A library's `io.nonblock = false` after the scheduler read the IO (heddle
  # remembers the IOs it found non-blocking): heddle's C path then waited in
  # read(2) holding the GVL, so the thread that was to write never ran and
  # the process hung. No path may stop the other threads.
  compliance "a_pipe_switched_to_blocking_mode_after_use_stops_no_other_thread" do
    result = in_fresh_peer(<<~RUBY, prelude: PRELUDE)
      reader, writer = IO.pipe
      reader.read_nonblock(1, exception: false) # read once while non-blocking
      reader.nonblock = false
      other = Thread.new { sleep 0.01; writer.write("x"); :wrote }
      [reader.read(1), other.value, reader.nonblock?]
    RUBY

    assert_equal ["x", :wrote, false], result
  end

  # The same switch, the write coming from another fiber: the read waits in
  # the loop. heddle's pure-Ruby path on a Ruby whose IO::Buffer#read
  # releases the GVL still remembers the mode and waits in read(2), which
  # stops this thread's fibers but no other thread (docs/scheduler.md).
  compliance "a_pipe_switched_to_blocking_mode_after_use_lets_the_other_fibers_run" do
    skip "heddle's pure-Ruby path remembers the mode here (docs/scheduler.md)" if @peer == :heddle && remembers_mode?
    order = in_fresh_peer(<<~RUBY, prelude: PRELUDE)
      order = []
      reader, writer = IO.pipe
      writer.write("a")
      reader.read(1) # read once while non-blocking
      reader.nonblock = false
      Fiber.schedule { order << :reading << reader.read(1) }
      Fiber.schedule { order << :other; sleep 0.001; writer.write("b"); order << :wrote }
      order
    RUBY

    assert_equal [:reading, :other, :wrote, "b"], order
  end

  # Heddle.with_timeout inside Heddle.run is a loop timer: it bounds a read
  # only if the read waits in the loop. On Ruby 3.1 a pipe switched to
  # blocking mode after use sat in read(2) with the GVL held, on both IO
  # paths (IO::Buffer#read, IO#read alike), and the timeout never fired.
  def test_with_timeout_bounds_a_read_of_a_pipe_switched_to_blocking_mode_after_use
    @peer = :heddle
    skip "heddle's pure-Ruby path remembers the mode here (docs/scheduler.md)" if remembers_mode?
    result = in_fresh_peer(<<~RUBY, prelude: PRELUDE)
      reader, _writer = IO.pipe # nothing is ever written
      reader.read_nonblock(1, exception: false) # read once while non-blocking
      reader.nonblock = false
      [-> { IO::Buffer.new(1).read(reader, 1) }, -> { reader.read(1) }].map do |read|
        Heddle.with_timeout(0.01, &read)
      rescue Heddle::Evaluation::TimeoutError => e
        e.class.name
      end
    RUBY

    assert_equal ["Heddle::Evaluation::TimeoutError"] * 2, result
  end

  # Ruby passes io_read length 0 for sysread as for read_nonblock, so no
  # scheduler can tell them apart: on an empty pipe sysread raises EAGAIN
  # under both peers (without a scheduler it waits). With data it reads.
  compliance "sysread_on_a_blocking_pipe" do
    result = in_fresh_peer(<<~RUBY, prelude: PRELUDE)
      reader, writer = IO.pipe
      reader.nonblock = false
      empty = begin
        reader.sysread(3)
      rescue Errno::EAGAIN => e
        e.class.name
      end
      writer.syswrite("abc")
      [empty, reader.sysread(3), reader.nonblock?]
    RUBY

    assert_equal ["Errno::EAGAIN", "abc", false], result
  end

  # read_nonblock keeps its meaning on a blocking-mode IO: no data, no wait
  # (and, as without a scheduler, Ruby itself leaves the IO non-blocking).
  compliance "read_nonblock_on_a_blocking_pipe_does_not_wait" do
    result = in_fresh_peer(<<~RUBY, prelude: PRELUDE)
      reader, _writer = IO.pipe
      reader.nonblock = false
      reader.read_nonblock(1, exception: false)
    RUBY

    assert_equal :wait_readable, result
  end

  # On Ruby 3.1 a process whose fiber read a blocking-mode pipe
  # under heddle ignored SIGTERM (the thread sat in read(2) holding the VM).
  compliance "sigterm_ends_a_process_whose_fiber_reads_a_blocking_pipe" do
    # (the writer stays referenced: a collected writer would close the pipe and end the read)
    requires, wrapper = CompliancePeers::FRESH_RUNNERS.fetch(@peer)
    body = 'reader, _w = IO.pipe; reader.nonblock = false; $stdout.write("reading\n"); $stdout.flush; reader.read(1)'
    status, output, = run_fresh_ruby("#{requires}\n#{PRELUDE}\n#{format(wrapper, body)}", limit: 20) do |pid, out|
      assert out.wait_readable(20), "the child did not start reading"
      sleep 0.05 # into the read; the signal must end it whatever it is doing
      Process.kill(:TERM, pid)
    end

    assert_equal "reading\n", output
    assert_equal Signal.list.fetch("TERM"), status&.termsig, "SIGTERM did not end the child: #{status.inspect}"
  end

  private

  # Whether heddle reads in pure Ruby and remembers each IO's mode there.
  def remembers_mode?
    Heddle::Scheduler::NATIVE_IO.nil? && Heddle::Scheduler::BlockingFiber::RELEASES_GVL
  end

  def async_version
    require "async"
    Gem.loaded_specs.fetch("async").version
  end

  def old_io_event?
    require "async"
    Gem.loaded_specs.fetch("io-event").version < Gem::Version.new("1.12")
  end
end
