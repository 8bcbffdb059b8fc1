# frozen_string_literal: true

require "test_helper"

# The idle-CPU family, the loop's part: each of heddle's own waits outside
# Heddle.run, held until another thread ends it, spends at most
# CpuMeter::IDLE_SHARE of a core, on each selector. (The nio4r selector read
# "no timeout" as "do not sleep", and every IO wait spun a core.)
module LoopIdleCpu
  include OnIOWatchBackend
  include IdleCpu

  # Raised into a root fiber's Heddle.wait to end it early.
  class Released < StandardError; end

  def test_heddle_wait_in_the_root_fiber
    share, value = on_backend do
      waiter = Thread.current
      CpuMeter.share_while_waiting(-> { waiter.raise(Released) }) do
        Heddle.wait(LIMIT)
      rescue Released
        :released
      end
    end
    assert_equal :released, value
    assert_idle share, "Heddle.wait in the root fiber"
  end

  def test_heddle_wait_in_a_concurrent_proc
    share, value = on_backend do
      sleeper = Heddle.concurrently { Heddle.wait(LIMIT) }
      CpuMeter.share_while_waiting(-> { sleeper.conclude_to(:released) }) { sleeper.await_result }
    end
    assert_equal :released, value
    assert_idle share, "Heddle.wait in a concurrent proc"
  end

  def test_await_resume_until_another_thread_resumes
    share, value = on_backend do
      waiter = Heddle.concurrently { Heddle.await_resume! }
      Heddle.wait 0
      CpuMeter.share_while_waiting(-> { waiter.resume!(:resumed) }) { waiter.await_result }
    end
    assert_equal :resumed, value
    assert_idle share, "Heddle.await_resume!"
  end

  def test_await_readable_on_an_empty_pipe
    share, value = on_backend do
      reader, writer = IO.pipe
      CpuMeter.share_while_waiting(-> { writer.write("x") }) { Heddle.await_readable(reader) }
    ensure
      [reader, writer].each { |io| io&.close }
    end
    assert_equal true, value
    assert_idle share, "Heddle.await_readable"
  end

  def test_await_writable_on_a_full_pipe
    share, value = on_backend do
      reader, writer = IO.pipe
      nil until writer.write_nonblock("x" * 65_536, exception: false) == :wait_writable
      CpuMeter.share_while_waiting(-> { reader.read_nonblock(1 << 20) }) { Heddle.await_writable(writer) }
    ensure
      [reader, writer].each { |io| io&.close }
    end
    assert_equal true, value
    assert_idle share, "Heddle.await_writable"
  end
end

class LoopIdleCpuSelectTest < Minitest::Test
  include LoopIdleCpu

  def backend = Heddle::EventLoop::Selectors::SelectWatch
end

class LoopIdleCpuNIOTest < Minitest::Test
  include LoopIdleCpu

  def backend = Heddle::EventLoop::Selectors::NIOWatch

  def setup
    skip "nio4r does not load: #{backend.load_error}" unless backend.available?
  end
end

class LoopIdleCpuEpollTest < Minitest::Test
  include LoopIdleCpu

  def backend = Heddle::EventLoop::Selectors::EpollWatch

  def setup
    skip "epoll in C is not available: #{backend.load_error}" unless backend.available?
  end
end
