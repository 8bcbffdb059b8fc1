# frozen_string_literal: true

require "test_helper"

# nio4r keeps ~740 bytes of every selector it makes (under thread
# churn): loops that close hand theirs on, and short-lived threads that each
# wait on an IO share a few selectors instead of making one each.
class SelectorReserveTest < Minitest::Test
  include OnIOWatchBackend

  THREADS = 20

  def backend = Heddle::EventLoop::Selectors::NIOWatch

  def reserve = Heddle::EventLoop::Selectors::SelectorReserve

  def setup
    skip "nio4r does not load: #{backend.load_error}" unless backend.available?
  end

  def test_short_lived_threads_that_wait_on_an_io_share_selectors
    selectors = Array.new(THREADS) { on_backend { selector_of_a_wait } }
    GC.start # the last thread's loop closes when reaped
    assert_operator selectors.uniq(&:object_id).size, :<=, 2, "each thread made a selector of its own"
  end

  # The first loop's reader stays open: only retiring the loop unregisters it.
  def test_a_selector_handed_on_holds_none_of_the_old_loops_ios
    reader, writer = IO.pipe
    writer.write("x")
    # Asked in the thread: once it ends, any GC may retire its loop.
    first, registered_before = on_backend do
      Heddle.await_readable(reader, within: 2)
      selector = Heddle::EventLoop.current.io.send(:selector)
      [selector, selector.registered?(reader)]
    end
    second = on_backend { selector_of_a_wait } # its loop opens after the first one's thread ended
    assert_equal [true, true, false], [registered_before, second.equal?(first), first.registered?(reader)]
  ensure
    [reader, writer].each { |io| io&.close }
  end

  def test_the_reserve_keeps_at_most_its_limit_and_closes_the_rest
    made = Array.new(reserve::LIMIT + 2) { NIO::Selector.new }
    own = reserve.new
    made.each { |selector| own.put(selector) }
    assert_equal reserve::LIMIT, own.size
    assert_equal [true, true], made.last(2).map(&:closed?)
    assert_equal made.first(reserve::LIMIT).reverse, Array.new(reserve::LIMIT) { own.take }
  end

  def test_fill_opens_spares_up_to_the_limit_and_loops_take_them
    own = reserve.new
    own.put(NIO::Selector.new)
    assert_equal [reserve::LIMIT, reserve::LIMIT], [own.fill, own.fill]
    taken = Array.new(reserve::LIMIT) { own.take }
    assert_equal [0, reserve::LIMIT, [false]], [own.size, taken.uniq(&:object_id).size, taken.map(&:closed?).uniq]
  ensure
    taken&.each(&:close)
  end

  def test_a_forked_child_closes_the_parents_spares
    skip "no fork here" unless Process.respond_to?(:fork)

    on_backend { selector_of_a_wait }
    GC.start
    reader, writer = IO.pipe
    pid = fork do
      reader.close
      writer.write([reserve.current.size, on_backend { selector_of_a_wait }.closed?].inspect)
      exit!(0)
    end
    writer.close
    Process.wait(pid)
    assert_equal "[0, false]", reader.read
  end

  private

  # Waits once on a pipe in this thread's loop; answers the loop's selector.
  def selector_of_a_wait
    reader, writer = IO.pipe
    writer.write("x")
    Heddle.await_readable(reader, within: 2, timeout_result: :late)
    Heddle::EventLoop.current.io.send(:selector)
  ensure
    [reader, writer].each { |io| io&.close }
  end
end
