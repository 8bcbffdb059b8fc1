# frozen_string_literal: true

require "test_helper"

# Every thread that slept in a loop used to hold the loop's wake-up pipe (and
# its selector, after IO waits) until the garbage collector freed its Thread
# object. Now the loops of ended threads are closed when
# the next loop opens its pipe. GC is off while the threads run, so nothing
# else closes the descriptors; other tests' threads may end meanwhile, so
# the test counts growth, not exact numbers.
class OpenLoopsTest < Minitest::Test
  include FreshRuby

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

  # The loop's wake-up pipe is told apart from what other tests' threads open
  # and close meanwhile by what it is: one pipe, both of its ends.
  def test_close_releases_the_loops_descriptors_and_a_later_sleep_reopens_them
    gone, back = Thread.new do
      sleep_in_loop
      opened = pipes
      Heddle::EventLoop.current.close
      closed = pipes
      sleep_in_loop
      [whole_pipes(opened.keys - closed.keys, opened), whole_pipes(pipes.keys - closed.keys, pipes)]
    end.value

    refute_empty gone, "closing the loop closed no pipe"
    refute_empty back, "the next sleep opened no pipe"
  end

  # In a fresh ruby: in the suite's process, other tests' threads open and
  # close descriptors meanwhile.
  def test_a_loop_that_never_sleeps_opens_no_pipe
    before, after = in_fresh_ruby(<<~RUBY, prelude: 'require "heddle"')
      descriptors = -> { Dir.children("/proc/self/fd").to_h { |fd| [fd, (File.readlink("/proc/self/fd/\#{fd}") rescue nil)] } }
      Thread.new do
        before = descriptors.call
        Heddle.concurrently { :done }.await_result
        Heddle.wait 0
        [before, descriptors.call]
      end.value
    RUBY

    assert_equal before.size, after.size, "descriptors opened: #{(after.to_a - before.to_a).to_h}"
  end

  # On Ruby 3.1 the weak map the registry was handed back, under
  # thread churn, objects that were not loops (a Symbol, an Array, nil) and
  # threads died in OpenLoops#add. 2,000 short-lived threads that each sleep
  # in a loop, while 10 long-lived loops wait for promises the churning
  # threads resolve: no thread may die and every promise must arrive.
  def test_thread_churn_with_cross_thread_waits_loses_no_thread
    promises = Array.new(CHURN) { Heddle::Promise.new }
    waiters = Array.new(10) { |i| Thread.new { promises.each_slice(10).map { |slice| value_of(slice[i]) } } }
    errors = churn(promises)

    assert_empty errors.tally, "threads died under churn"
    assert_equal (0...CHURN).to_a, waiters.map(&:value).transpose.flatten
  ensure
    waiters&.each(&:kill)
  end

  # 200 finished threads kept 400 descriptors after GC until the
  # next loop opened (their Thread objects were still referenced, so the
  # weak map kept their loops). Now a collection reaps them.
  def test_a_collection_closes_the_loops_of_ended_threads_still_referenced
    before = descriptors
    threads = Array.new(THREADS) { Thread.new { Heddle.wait 0.001 } }
    threads.each { |thread| thread.join(10) or flunk "a thread did not finish" }
    GC.start
    100.times { descriptors - before < 10 ? break : sleep(0.01) } # the reaping thread runs after GC

    assert_operator descriptors - before, :<, 10, "the ended threads' pipes stayed open after GC"
    refute_includes threads.map(&:alive?), true
  end

  # Nothing tells a loop that its thread ended. A collection during the
  # thread's life spent the canary with nothing to reap, so the thread's
  # pipe stayed open after it ended until another loop opened one (a process
  # map under fiber raises on 3.3 counted it as two leaked descriptors).
  # Outside the main thread, Heddle.run now closes its loop as it ends. In a
  # fresh ruby: the suite's other threads open loops meanwhile.
  def test_a_heddle_run_outside_the_main_thread_closes_its_loop_as_it_ends
    open_inside, open_after = in_fresh_ruby(<<~RUBY, prelude: 'require "heddle"')
      GC.disable # no canary reaps meanwhile
      registry = Heddle::EventLoop::OpenLoops.current
      Thread.new do
        inside = Heddle.run do
          100.times { Heddle::EventLoop.current.open? ? break : sleep(0.01) }
          registry.size
        end
        [inside, registry.size] # the thread still runs
      end.value
    RUBY

    assert_equal [1, 0], [open_inside, open_after]
  end

  # A thread whose loop opened outside Heddle.run (a promise awaited, a
  # proc's result awaited) ends with nothing to close the loop. The canary
  # fired once, during the thread's life, and was not armed again: the
  # pipe stayed open until another loop opened one (a soak counted it as
  # grown descriptors). Now every collection while a loop of a live thread
  # other than the main one is registered arms the next, and the process
  # still exits (at exit Ruby runs finalizers until none is left).
  def test_a_collection_after_a_thread_ends_closes_its_loop_though_one_ran_during_its_life
    during, after = in_fresh_ruby(<<~RUBY, prelude: 'require "heddle"')
      registry = Heddle::EventLoop::OpenLoops.current
      opened = Queue.new
      finish = Queue.new
      thread = Thread.new do
        100.times { Heddle::EventLoop.current.open? ? break : Heddle.wait(0.01) }
        opened << true
        finish.pop
      end
      opened.pop
      GC.start # the canary fires now, the loop's thread alive
      during = registry.size
      finish << true
      thread.join
      200.times { GC.start; registry.size.zero? ? break : sleep(0.01) } # the reaper is a thread
      [during, registry.size]
    RUBY

    assert_equal [1, 0], [during, after]
  end

  # A proc fiber opening its loop's selector waited for a registry's lock
  # through the Fiber scheduler, the loop's own fiber then waited for it
  # natively, and the unlock went to the parked fiber: the thread slept on a
  # free lock for good (1 Heddle.run thread in 800 under churn). The
  # registries now change with single atomic calls instead.
  def test_the_loop_registries_hold_no_lock_a_fiber_could_park_on
    registries = [Heddle::EventLoop::OpenLoops.current, Heddle::EventLoop::Selectors::SelectorReserve.current]
    locks = registries.flat_map { |r| r.instance_variables.map { |name| r.instance_variable_get(name) } }

    assert_empty locks.grep(Thread::Mutex)
  end

  # 40 threads open their loops, all end, then 4 reapers race over them.
  RACING_REAPERS = <<~RUBY
    GC.disable # no canary reaps meanwhile
    registry = Heddle::EventLoop::OpenLoops.current
    opened = Queue.new
    finish = Queue.new
    threads = Array.new(40) do
      Thread.new do
        100.times { Heddle::EventLoop.current.open? ? break : Heddle.wait(0.01) }
        opened << true
        finish.pop
      end
    end
    40.times { opened.pop } # all open before any ends: no opening reaps another's loop
    40.times { finish << true }
    threads.each(&:join)
    loops = registry.instance_variable_get(:@loops).size
    go = Queue.new
    reapers = Array.new(4) { Thread.new { go.pop && registry.reap } }
    4.times { go << true }
    [reapers.sum(&:value), loops]
  RUBY

  # Without a lock, reapers racing over the same ended loops still close
  # each one once: the counts they report add up to the loops there were.
  def test_racing_reapers_close_each_ended_loop_once
    reaped, loops = in_fresh_ruby(RACING_REAPERS, prelude: 'require "heddle"')

    assert_equal 40, loops
    assert_equal loops, reaped
  end

  CHURN = 2_000

  private

  def value_of(promise)
    promise.wait(30) && promise.value
  end

  # Starts CHURN threads, 25 at a time, each sleeping in its loop and then
  # fulfilling its promise; answers the errors that killed any of them.
  def churn(promises)
    errors = []
    promises.each_with_index.each_slice(50) do |batch|
      batch.map { |promise, index| Thread.new { churning_thread(promise, index) } }.each do |thread|
        thread.join
      rescue StandardError, SystemStackError => e
        errors << e.class
      end
    end
    errors
  end

  def churning_thread(promise, index)
    Thread.current.report_on_exception = false
    Heddle.wait(0.0001)
    promise.fulfill(index)
  end

  # Waits in the thread's loop until the loop has slept, which opens its
  # pipe: under YJIT a first short wait can be due before the loop sleeps.
  def sleep_in_loop
    100.times { Heddle::EventLoop.current.open? ? break : Heddle.wait(0.01) }
  end

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

  # @return [Hash{String => String}] each open descriptor that is a pipe's end, to its pipe
  def pipes
    Dir.children("/proc/self/fd").to_h { |fd| [fd, target(fd)] }.select { |_fd, to| to&.start_with?("pipe:") }
  end

  # nil for a descriptor closed since it was listed (the listing's own, for one)
  def target(descriptor)
    File.readlink("/proc/self/fd/#{descriptor}")
  rescue Errno::ENOENT
    nil
  end

  # @return [Array<String>] the pipes both of whose ends are among fds
  def whole_pipes(fds, targets)
    fds.map { |fd| targets.fetch(fd) }.tally.select { |_pipe, ends| ends == 2 }.keys
  end
end
