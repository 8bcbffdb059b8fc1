# frozen_string_literal: true

require "test_helper"

# IO waits under interrupts (docs/sync.md, "Interrupts, fuzzed"): fibers
# inside Heddle.run read one byte at a time from a pipe (IO#read through the
# scheduler's hooks, Heddle.await_readable, IO#wait_readable), threads outside
# it wait with Heddle.await_readable, while a writer thread writes at random
# moments and interrupts land. After: every byte read exactly once (or still
# in the pipe), no IO waiter left in the loop's registry, nobody hung.
class SchedulerIOWaitInterruptsTest < Minitest::Test
  include InterruptFuzz

  C = Heddle::Check

  def test_fibers_interrupted_in_an_io_wait_lose_no_byte_and_leave_no_waiter
    fuzz_interrupts(schedule(%i[read await_readable wait_readable], InterruptCrew::FIBER_KINDS)) do |s|
      play(s) { |crew, op| crew.on_fibers(&op) }
    end
  end

  def test_threads_interrupted_in_await_readable_lose_no_byte
    fuzz_interrupts(schedule(%i[await_readable], InterruptCrew::THREAD_KINDS, timeouts: false)) do |s|
      play(s) { |crew, op| crew.on_threads(&op) }
    end
  end

  private

  def schedule(ops, kinds, timeouts: true)
    InterruptFuzz.schedule(ops: ops, kinds: kinds, timeouts: timeouts, write_us: InterruptFuzz.delay_us)
  end

  def play(schedule)
    reader, writer = IO.pipe
    bytes = Array.new(schedule[:actors].sum { |actor| actor[:runs] }) { |i| (i % 250).chr }.join
    read = []
    writing = Thread.new { write(writer, bytes, schedule[:write_us]) }
    crew = InterruptCrew.new(schedule)
    yield crew, ->(actor, _index) { take(reader, actor[:op], read) }
    writing.join
    writer.close
    check(read, reader, bytes, crew)
  ensure
    [reader, writer].each { |io| io&.close unless io&.closed? }
  end

  # Every byte read once, or still in the pipe.
  def check(read, reader, bytes, crew)
    left = reader.read
    return if (read.join + left).chars.sort == bytes.chars.sort

    raise InterruptFuzz::Broken, "read #{read.inspect} and left #{left.inspect} of #{bytes.inspect}; " \
                                 "runs #{crew.logs.inspect}"
  end

  def write(writer, bytes, write_us)
    bytes.each_char do |byte|
      sleep(write_us / 1_000_000.0)
      writer.write(byte)
    end
  end

  # One byte, by the op's kind of wait, noted in +read+. A readiness wait
  # may be stale (another reader took the byte): it reads without blocking
  # and waits again. The read and its note are one step for a Thread#raise,
  # as user code that must not drop a byte writes it.
  def take(reader, form, read)
    return read << reader.read(1) if form == :read

    loop do
      form == :wait_readable ? reader.wait_readable : Heddle.await_readable(reader)
      taken = Thread.handle_interrupt(Object => :never) do
        byte = reader.read_nonblock(1, exception: false)
        byte != :wait_readable && (read << byte)
      end
      return if taken
    end
  end
end

# The same fuzz on nio4r's back end (the one above runs on the default,
# epoll in C where the C path is built): NIOWatch holds interrupts back
# around its calls into nio4r, which the C registry does not need.
class SchedulerIOWaitInterruptsNIOTest < SchedulerIOWaitInterruptsTest
  def setup
    super
    nio = Heddle::EventLoop::Selectors::NIOWatch
    skip "nio4r does not load: #{nio.load_error}" unless nio.available?
    @previous = Heddle::EventLoop::IOWatch.instance_variable_get(:@backend)
    Heddle::EventLoop::IOWatch.backend = nio
  end

  def teardown
    Heddle::EventLoop::IOWatch.backend = @previous
    super
  end
end
