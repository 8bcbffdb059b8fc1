# frozen_string_literal: true

require "test_helper"

# Every thread that slept in a loop used to hold the loop's wake-up pipe (and
# its selector, after IO waits) until the garbage collector freed its Thread
# object (issue 14, item 8). Now the loops of ended threads are closed when
# the next loop opens its pipe. GC is off while the threads run, so nothing
# else closes the descriptors; other tests' threads may end meanwhile, so
# the test counts growth, not exact numbers.
class OpenLoopsTest < Minitest::Test
  THREADS = 50

  def test_ended_threads_do_not_keep_their_loops_descriptors
    before = descriptors
    GC.disable
    THREADS.times { Thread.new { Heddle.run { sleep_and_read } }.join(10) or flunk "a thread did not finish" }
    growth = descriptors - before

    assert_operator growth, :<, 10, "#{THREADS} threads that used a loop left #{growth} descriptors open"
  ensure
    GC.enable
  end

  def test_close_releases_the_loops_descriptors_and_a_later_sleep_reopens_them
    counts = Thread.new do
      Heddle.wait 0.001
      opened = descriptors
      Heddle::EventLoop.current.close
      closed = descriptors
      Heddle.wait 0.001
      [opened - closed, descriptors - closed]
    end.value

    assert_equal [2, 2], counts
  end

  def test_a_loop_that_never_sleeps_opens_no_pipe
    growth = Thread.new do
      before = descriptors
      Heddle.concurrently { :done }.await_result
      Heddle.wait 0
      descriptors - before
    end.value

    assert_equal 0, growth
  end

  private

  # A sleep (the wake-up pipe) and a read that waits (the selector).
  def sleep_and_read
    reader, writer = IO.pipe
    Heddle.concurrently do
      sleep 0.001
      writer.write("x")
    end
    reader.read(1)
  ensure
    [reader, writer].each { |io| io&.close }
  end

  def descriptors
    Dir.children("/proc/self/fd").size
  end
end
