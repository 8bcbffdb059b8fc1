# frozen_string_literal: true

require "test_helper"
require "timeout"

# The IOWatch behaviours both back ends share: each test runs once per back
# end. Orders and counts only, never timings.
module IOWatchBehaviour
  include OnIOWatchBackend

  def test_the_loop_uses_the_chosen_back_end
    assert_instance_of backend, on_backend { Heddle::EventLoop.current.io } # rubocop:disable Lint/AmbiguousBlockAssociation
  end

  def test_any_number_of_waiters_per_io_and_direction
    woken = on_backend do
      reader, writer = IO.pipe
      readers = Array.new(3) { Heddle.concurrently { Heddle.await_readable(reader, within: 2, timeout_result: :late) } }
      writers = Array.new(2) { Heddle.concurrently { Heddle.await_writable(writer, within: 2, timeout_result: :late) } }
      Heddle.wait 0
      waiting = Heddle::EventLoop.current.io.waiting?
      writer.write "x"
      [waiting, readers.map(&:await_result), writers.map(&:await_result)]
    end
    assert_equal [true, [true, true, true], [true, true]], woken
  end

  def test_registrations_are_kept_across_waits_and_dropped_when_idle
    kept, dropped = on_backend do
      reader, writer = IO.pipe
      writer.write "x"
      Heddle.await_readable(reader)
      watch = Heddle::EventLoop.current.io
      kept = [watch.watching?, watch.empty?]
      # The idle registration goes after IDLE_SLEEPS sleeps of the loop; a
      # wait whose timer is already due when the loop polls (a slow, loaded
      # machine) does not sleep, hence the bound rather than an exact count.
      50.times { watch.watching? && Heddle.wait(0.001) }
      [kept, watch.watching?]
    end
    assert_equal [true, true], kept
    refute dropped
  end

  def test_a_sweep_leaves_tokens_for_ready_ios_nobody_waits_on
    taken = on_backend do
      pipes = Array.new(3) { IO.pipe.tap { |_, writer| writer.write "x" } }
      readers = pipes.map(&:first)
      readers.each { |reader| Heddle.await_readable(reader) } # registers all three
      watch = Heddle::EventLoop.current.io
      watch.sweep
      readers.map { |reader| watch.take_readable(reader) } + [watch.take_readable(readers[0])]
    end
    assert_equal [true, true, true, false], taken
  end

  def test_an_idle_ready_io_does_not_make_the_loop_spin
    waits = on_backend do
      reader, writer = IO.pipe
      writer.write "x" # stays readable: nobody reads it
      Heddle.await_readable(reader)
      count = counting(Heddle::EventLoop.current.io, :wait)
      Heddle.wait 0.05
      count[0]
    end
    assert_operator waits, :<=, 3 # one that finds it ready (and disarms it), one that sleeps
  end

  def test_a_wait_times_out
    result = on_backend { Heddle.await_readable(IO.pipe[0], within: 0.01, timeout_result: :none) }
    assert_equal :none, result
  end

  def test_closing_an_awaited_io_wakes_its_waiters_and_a_closed_io_raises_at_once
    result = on_backend do
      reader, _writer = IO.pipe
      waiters = Array.new(2) { Heddle.concurrently { closed_stream { Heddle.await_readable(reader) } } }
      Heddle.wait 0
      reader.close
      late = Heddle.concurrently { closed_stream { Heddle.await_readable(reader) } }
      woken = waiters.map { |waiter| waiter.await_result(within: 2) }
      [woken, late.await_result(within: 2), Heddle::EventLoop.current.io.empty?]
    end
    assert_equal [%i[closed closed], :closed, true], result
  end

  def test_a_resume_from_another_thread_wakes_a_loop_that_waits_on_ios
    result = on_backend do
      reader, _writer = IO.pipe
      Heddle.concurrently { Heddle.await_readable(reader, within: 2) }
      waiter = Heddle.concurrently { Heddle.await_resume! }
      Thread.new do
        sleep 0.01
        waiter.resume!(:from_thread)
      end
      waiter.await_result(within: 2)
    end
    assert_equal :from_thread, result
  end

  def test_a_forked_child_leaves_the_parents_registrations_alone
    result = on_backend do
      reader, writer = IO.pipe
      own_r, own_w = IO.pipe
      waiter = Heddle.concurrently { Heddle.await_readable(reader, within: 5, timeout_result: :late) }
      Heddle.wait 0
      pid = fork do
        own_w.write "c"
        exit!(Heddle.await_readable(own_r, within: 1) && Heddle::EventLoop.current.io.empty? ? 0 : 1)
      end
      child_ok = Timeout.timeout(5) { Process.wait2(pid).last.success? }
      writer.write "x"
      [child_ok, waiter.await_result]
    end
    assert_equal [true, true], result
  end
end

# Warm paths and ageing both back ends share (kept apart from
# IOWatchBehaviour, which is long enough).
module IOWatchTurns
  include OnIOWatchBackend

  # A loop whose IO is always ready never sleeps (a Heddle.run over loopback
  # sockets); its registrations of IOs nobody closes (Ruby's socket calls
  # wait through a temporary IO per call) must still age and go: they piled
  # up, 4 a round in the soak's sockets load, until this counted sweeps too.
  def test_a_loop_that_never_sleeps_still_drops_idle_registrations
    kept, dropped = on_backend do
      pipes = Array.new(3) { IO.pipe.tap { |_reader, writer| writer.write "x" } }
      pipes.map(&:first).each { |reader| Heddle.await_readable(reader) }
      watch = Heddle::EventLoop.current.io
      kept = watch.watching?
      rounds = (Heddle::EventLoop::IOWatch::IDLE_SLEEPS + 2) * Heddle::EventLoop::IOWatch::SWEEPS_PER_SLEEP
      Heddle.concurrently { rounds.times { Heddle.wait 0 } }.await_result # a round each, never a sleep
      [kept, watch.watching?].tap { pipes.flatten.each(&:close) }
    end
    assert kept
    refute dropped
  end

  # bench wait_methods "await_readable": 100 ready pipes awaited in turn
  # from the root fiber. Once warm, one sweep's tokens serve a whole pass;
  # nio4r once disarmed each pipe while it warmed up, and then every await
  # paid a sweep of its own.
  def test_ready_ios_awaited_in_turn_share_one_sweep_per_pass
    sweeps = on_backend do
      readers = Array.new(100) { IO.pipe.tap { |_, writer| writer.write "x" }.first }
      3.times { readers.each { |reader| Heddle.await_readable(reader) } }
      count = counting(Heddle::EventLoop.current.io, :sweep)
      5.times { readers.each { |reader| Heddle.await_readable(reader) } }
      count[0]
    end
    assert_operator sweeps, :<=, 10 # one per pass of 100 awaits (it was one per await)
  end
end

# Closing an awaited IO from another thread, and awaiting a closed one.
module IOWatchClosed
  include OnIOWatchBackend

  # On the IO.select back end an IO closed by another thread left
  # its waiter hanging (the kernel's select does not return for it), and
  # await_readable on an IO already closed answered true.
  def test_an_io_closed_by_another_thread_wakes_await_readable_without_within
    result = on_backend do
      reader, writer = IO.pipe
      closer = Thread.new { Heddle.wait(0.02) && reader.close }
      [closed_stream { Heddle.await_readable(reader) }, closer.value && writer.close]
    end
    assert_equal [:closed, nil], result
  end

  def test_a_blocking_read_in_heddle_run_wakes_when_another_thread_closes_the_io
    result = on_backend do
      reader, writer = IO.pipe
      closer = Thread.new { Heddle.wait(0.02) && reader.close }
      [closed_stream { Heddle.run { reader.read(1) } }, closer.value && writer.close]
    end
    assert_equal [:closed, nil], result
  end

  # The nio4r back end read "sleep until an IO is ready" (timeout nil) as
  # "do not sleep" and polled a whole core away while a read waited.
  def test_a_read_that_waits_in_heddle_run_spends_no_cpu
    share, value = on_backend do
      reader, writer = IO.pipe
      CpuMeter.share_while_waiting(-> { writer.write("x") }) { Heddle.run { reader.read(1) } }
    end
    assert_equal "x", value
    assert_operator share, :<=, CpuMeter::IDLE_SHARE
  end

  def test_await_readable_outside_heddle_run_spends_no_cpu
    share, value = on_backend do
      reader, writer = IO.pipe
      CpuMeter.share_while_waiting(-> { writer.write("x") }) { Heddle.await_readable(reader) }
    end
    assert_equal true, value
    assert_operator share, :<=, CpuMeter::IDLE_SHARE
  end

  # Ruby 3.1's backtick releases its pipe's IO (closed? then raises
  # "uninitialized stream") while the loop still has it registered: the
  # scan took that IOError for its own and cancelled every fiber.
  def test_backticks_in_scheduled_fibers_with_gc_between_rounds
    outputs = on_backend do
      Array.new(8) do
        GC.start
        Heddle.run { Array.new(3) { Fiber.schedule { `echo ok` } }.map { |f| f.evaluation.await_result } }
      end
    end
    assert_equal [["ok\n"] * 3] * 8, outputs
  end

  # An interrupt as add_reader returns (Thread#raise, Thread#kill) left the
  # waiter registered: the ready IO then woke nobody, was never disarmed,
  # and the loop polled it without end.
  def test_an_interrupt_as_the_waiter_registers_leaves_no_registration
    waiting = on_backend do
      reader, writer = IO.pipe
      watch = Heddle::EventLoop.current.io
      watch.singleton_class.prepend(Module.new { def add_reader(...) = super.tap { raise Interrupt } })
      assert_raises(Interrupt) { Heddle.await_readable(reader) }
      [watch.waiting, watch.waiters.size].tap { [reader, writer].each(&:close) }
    end
    assert_equal [0, 0], waiting
  end

  def test_awaiting_an_io_already_closed_raises
    result = on_backend do
      reader, writer = IO.pipe
      [reader, writer].each(&:close)
      [closed_stream { Heddle.await_readable(reader) }, closed_stream { Heddle.await_writable(writer) }]
    end
    assert_equal %i[closed closed], result
  end
end

class IOWatchSelectTest < Minitest::Test
  include IOWatchBehaviour
  include IOWatchClosed
  include IOWatchTurns

  def backend = Heddle::EventLoop::Selectors::SelectWatch
end

class IOWatchNIOTest < Minitest::Test
  include IOWatchBehaviour
  include IOWatchClosed
  include IOWatchTurns

  def backend = Heddle::EventLoop::Selectors::NIOWatch

  def setup
    skip "nio4r does not load: #{backend.load_error}" unless backend.available?
  end

  # Past SCAN_ALWAYS registrations, closed IOs are looked for at most every
  # SCAN_INTERVAL: the sleep is cut short to it, so the waiter still wakes.
  def test_closing_one_of_many_awaited_ios_wakes_its_waiter
    result = on_backend do
      pipes = Array.new(backend::SCAN_ALWAYS + 20) { IO.pipe }
      waiters = pipes.map do |(reader, _)|
        Heddle.concurrently { closed_stream { Heddle.await_readable(reader, within: 3) } }
      end
      2.times { Heddle.wait 0.005 } # sleeps, and scans: the next scan is SCAN_INTERVAL away
      pipes[7][0].close
      woken = waiters[7].await_result(within: 2)
      release(waiters, pipes)
      woken
    end
    assert_equal :closed, result
  end

  # A Thread#raise (Heddle.with_timeout's watchdog) landing inside
  # add_reader left a registration with no use recorded, and the next scan
  # raised NoMethodError (CI, 3.4 --yjit). It is dropped as idle instead.
  def test_an_add_reader_interrupted_before_arming_leaves_a_scannable_registration
    watch = backend.new
    watch.singleton_class.prepend(Module.new { def arm(*) = raise(Interrupt, "interrupted") })
    reader, writer = IO.pipe
    assert_raises(Interrupt) { watch.add_reader(reader, Object.new) }
    scans = Array.new(backend::IDLE_SLEEPS + 2) { watch.send(:scan, age: true) }
    assert_equal [false, false], [scans.any?, watch.watching?]
  ensure
    [reader, writer].each { |io| io&.close }
    watch&.clear
  end

  # A Thread#raise landing as a disarm's call into nio4r returned left the
  # direction marked armed over a monitor that was not, and the next waiter
  # of the IO slept for good (CI on 3.1, the IO-wait interrupts fuzz). The
  # raise comes from a prepended method, not a TracePoint: a raise out of a
  # TracePoint hook left Ruby 3.1 tracing, and later tests' threads raced.
  def test_a_disarm_interrupted_as_nio4r_returns_leaves_the_next_waiter_woken
    with_watched_pipe do |watch, reader, writer, wake_r|
      first = Object.new
      watch.add_reader(reader, first)
      watch.remove_reader(reader, first)
      writer.write("x") # ready with nobody waiting: the blocking wait disarms it
      interrupt_after_disarm(watch, reader) { watch.wait(0.1, wake_r) }
      woken = []
      watch.add_reader(reader, recording_waiter(woken))
      3.times { watch.wait(0.1, wake_r) if woken.empty? }
      assert_equal [:ready], woken
    end
  end

  # A raise landing inside nio4r's register, after the new monitor started
  # watching and before the selector recorded it, left a watcher recorded
  # nowhere: the GC freed the monitor under libev, and a later event read
  # freed memory (CI on 3.1, the IO-wait interrupts fuzz: "undefined method
  # `value' for an Integer"). Held back, the raise lands once it is recorded.
  def test_a_raise_inside_nio4rs_register_lands_once_the_monitor_is_recorded
    with_watched_pipe do |watch, reader, writer, wake_r|
      woken = []
      waiter = recording_waiter(woken)
      raise_inside_register { watch.add_reader(reader, waiter) }
      reg = watch.instance_variable_get(:@regs).fetch(reader)

      assert watch.instance_variable_get(:@selector).registered?(reader), "the new monitor was not recorded"
      assert_same reg, reg.monitor.value
      watch.add_reader(reader, waiter)

      assert_equal [:ready], woken_by_a_byte(watch, writer, wake_r, woken)
    end
  end

  # nio4r's select takes its selector's Mutex with a call back into Ruby,
  # and records itself as the holder after: a raise landing as the lock
  # returned left it held by nobody, and every later select of the loop
  # failed with "deadlock; recursive locking" (CI on 3.1, seed 1467760223).
  # The watch now finds the lock left held and moves to a fresh selector.
  def test_a_raise_as_the_sweep_takes_nio4rs_lock_leaves_the_selector_usable
    with_watched_pipe do |watch, reader, writer, wake_r|
      woken = []
      waiter = recording_waiter(woken)
      watch.add_reader(reader, waiter)
      raise_as_a_lock_is_taken { watch.sweep }
      assert_equal [:ready], woken_by_a_byte(watch, writer, wake_r, woken)
    end
  end

  # The blocking select cannot hold interrupts back: a raise as it takes
  # nio4r's lock leaves the lock held by nobody, and the watch moves to a
  # fresh selector with its registrations, so the next waits still work.
  def test_a_raise_as_the_blocking_select_takes_nio4rs_lock_leaves_the_waits_working
    with_watched_pipe do |watch, reader, writer, wake_r|
      woken = []
      waiter = recording_waiter(woken)
      watch.add_reader(reader, waiter)
      watch.wait(0, wake_r) # the wake-up pipe is registered: the next wait takes the lock first
      poisoned = watch.instance_variable_get(:@selector)
      raise_as_a_lock_is_taken { watch.wait(0.1, wake_r) }

      refute_same poisoned, watch.instance_variable_get(:@selector)
      assert_equal [:ready], woken_by_a_byte(watch, writer, wake_r, woken)
    end
  end

  # A second interrupt, arriving while the watch looks for a stuck lock after
  # a first one left the select, comes out: the look once rescued it (a
  # StandardError held back until its mask ended) and returned.
  def test_an_interrupt_arriving_during_the_look_for_a_stuck_lock_is_not_swallowed
    with_watched_pipe do |watch, reader, _writer, wake_r|
      watch.add_reader(reader, recording_waiter([]))
      watch.wait(0, wake_r)
      leave_the_next_select_with_an_interrupt(watch.instance_variable_get(:@selector))
      Thread::Mutex.prepend(RaiseAfterLock) unless Thread::Mutex <= RaiseAfterLock
      error = assert_raises(SecondInterrupt) { watch.wait(0.1, wake_r) }

      assert_equal "interrupted as the lock returned", error.message
    end
  ensure
    Thread.current[RaiseAfterLock::KEY] = nil
  end

  class FirstInterrupt < StandardError; end
  class SecondInterrupt < StandardError; end

  # Raises once as the next Mutex#lock called from Ruby returns, on this
  # thread, as a Thread#raise from elsewhere lands there (held back by a mask).
  module RaiseAfterLock
    KEY = :__heddle_test_raise_after_lock__

    def lock
      super.tap do
        if (error = Thread.current[KEY])
          Thread.current[KEY] = nil
          Thread.current.raise(error.equal?(true) ? Interrupt : error, "interrupted as the lock returned")
        end
      end
    end
  end

  # Asks a new monitor for its io inside nio4r's register, between the
  # monitor's start and the selector's record of it: raises there once, as a
  # Thread#raise from elsewhere lands (held back by a mask).
  module RaiseInsideRegister
    KEY = :__heddle_test_raise_inside_register__

    def io
      if Thread.current[KEY]
        Thread.current[KEY] = nil
        Thread.current.raise(Interrupt, "interrupted inside register")
      end
      super
    end
  end

  private

  # A fresh watch and two pipes (one to watch, one for the wake-up), closed
  # and cleared after the block.
  def with_watched_pipe
    watch = backend.new
    reader, writer = IO.pipe
    wake_r, wake_w = IO.pipe
    yield watch, reader, writer, wake_r
  ensure
    [reader, writer, wake_r, wake_w].each { |io| io&.close }
    watch&.clear
  end

  def recording_waiter(woken)
    waiter = Object.new
    waiter.define_singleton_method(:__io_ready__) { woken << :ready }
    waiter
  end

  # Writes a byte and lets the watch wait (at most 3 times) until +woken+ says so.
  def woken_by_a_byte(watch, writer, wake_r, woken)
    writer.write("x")
    3.times { watch.wait(0.1, wake_r) if woken.empty? }
    woken
  end

  # The next select of +selector+ raises FirstInterrupt at once, after arming a
  # SecondInterrupt for the next lock (the look's select takes it, masked).
  def leave_the_next_select_with_an_interrupt(selector)
    left = []
    selector.singleton_class.prepend(Module.new do
      define_method(:select) do |*args|
        return super(*args) unless left.empty?

        left << true
        Thread.current[RaiseAfterLock::KEY] = SecondInterrupt
        raise FirstInterrupt, "first"
      end
    end)
  end

  def raise_as_a_lock_is_taken(&)
    Thread::Mutex.prepend(RaiseAfterLock) unless Thread::Mutex <= RaiseAfterLock
    Thread.current[RaiseAfterLock::KEY] = true
    assert_raises(Interrupt, &)
    assert_nil Thread.current[RaiseAfterLock::KEY], "nio4r took no Mutex in the sweep"
  ensure
    Thread.current[RaiseAfterLock::KEY] = nil
  end

  def raise_inside_register(&)
    NIO::Monitor.prepend(RaiseInsideRegister) unless NIO::Monitor <= RaiseInsideRegister
    Thread.current[RaiseInsideRegister::KEY] = true
    assert_raises(Interrupt, &)
    assert_nil Thread.current[RaiseInsideRegister::KEY], "nio4r did not ask the new monitor for its io"
  ensure
    Thread.current[RaiseInsideRegister::KEY] = nil
  end

  # Raises Interrupt as the monitor of +io+ returns from a disarm (interests
  # set to none), once: where Ruby checks interrupts after nio4r's call.
  def interrupt_after_disarm(watch, io, &)
    raised = []
    monitor = watch.instance_variable_get(:@regs).fetch(io).monitor
    monitor.singleton_class.prepend(Module.new do
      define_method(:interests=) do |value|
        super(value).tap { raise Interrupt, "interrupted" if value.nil? && raised.empty? && (raised << true) }
      end
    end)
    assert_raises(Interrupt, &)
    refute_empty raised, "the wait disarmed the idle, ready IO"
  end

  def release(waiters, pipes)
    waiters.each { |waiter| waiter.conclude_to(nil) unless waiter.concluded? }
    pipes.flatten.each { |io| io.close unless io.closed? }
  end
end

class IOWatchEpollTest < Minitest::Test
  include IOWatchBehaviour
  include IOWatchClosed
  include IOWatchTurns

  def backend = Heddle::EventLoop::Selectors::EpollWatch

  def setup
    skip "epoll in C is not available: #{backend.load_error}" unless backend.available?
  end

  # The kernel keeps a closed descriptor's registration while another
  # descriptor holds its file open, and reports it under the old number:
  # the watch moves to a new epoll set, and waits on other IOs still work.
  def test_a_closed_descriptor_whose_file_lives_on_moves_the_watch_to_a_new_epoll_set
    watch = backend.new
    reader, writer = IO.pipe
    copy = reader.dup
    waiter = recording_waiter([])
    watch.add_reader(reader, waiter)
    watch.remove_reader(reader, waiter)
    first = watch.descriptor
    reader.close
    writer.write("x") # the file is readable, its old descriptor number gone
    3.times { watch.sweep }
    assert_equal [true, 0], [first != watch.descriptor, watch.waiting]
    assert_equal [:ready], woken_on_a_fresh_pipe(watch)
  ensure
    [reader, writer, copy].each { |io| io&.close unless io&.closed? }
    watch&.clear
  end

  # epoll refuses regular files; they are always ready, as IO.select says.
  def test_a_regular_file_is_always_ready
    result = on_backend do
      File.open(__FILE__) { |file| [Heddle.await_readable(file, within: 1), Heddle.await_writable($stdout, within: 1)] }
    end
    assert_equal [true, true], result
  end

  # A raise in one waiter's wake (a Thread#raise landing there) leaves the
  # others registered: the next poll wakes them.
  def test_a_raise_in_one_wake_leaves_the_other_waiters_for_the_next_poll
    watch = backend.new
    reader, writer = IO.pipe
    woken = []
    raiser = Object.new
    raiser.define_singleton_method(:__io_ready__) { (woken << :raiser).size == 1 ? raise(Interrupt) : nil }
    [raiser, recording_waiter(woken)].each { |waiter| watch.add_reader(reader, waiter) }
    writer.write("x")
    assert_raises(Interrupt) { watch.sweep }
    watch.sweep
    assert_equal %i[raiser raiser ready], woken
  ensure
    [reader, writer].each { |io| io&.close }
    watch&.clear
  end

  # The waiters of a closed IO leave its queue one by one: a raise in one
  # wake leaves the others queued.
  def test_a_raise_in_a_closed_ios_wake_leaves_the_others_queued
    watch = backend.new
    reader, writer = IO.pipe
    reader.close
    woken = []
    raiser = Object.new
    raiser.define_singleton_method(:__io_ready__) { (woken << :raiser) && raise(Interrupt) }
    [raiser, recording_waiter(woken)].each { |waiter| watch.add_reader(reader, waiter) }
    assert_raises(Interrupt) { watch.sweep }
    watch.sweep
    assert_equal [%i[raiser ready], 0], [woken, watch.waiting]
  ensure
    writer&.close
    watch&.clear
  end

  private

  def recording_waiter(woken)
    waiter = Object.new
    waiter.define_singleton_method(:__io_ready__) { woken << :ready }
    waiter
  end

  def woken_on_a_fresh_pipe(watch)
    reader, writer = IO.pipe
    wake_r, wake_w = IO.pipe
    woken = []
    watch.add_reader(reader, recording_waiter(woken))
    writer.write("y")
    3.times { watch.wait(0.1, wake_r) if woken.empty? }
    woken
  ensure
    [reader, writer, wake_r, wake_w].each { |io| io&.close }
  end
end

class IOWatchChoiceTest < Minitest::Test
  def test_heddle_selector_names_the_back_end
    watch = Heddle::EventLoop::IOWatch
    selectors = Heddle::EventLoop::Selectors
    assert_equal selectors::SelectWatch, watch.choose("select")
    best = [selectors::EpollWatch, selectors::NIOWatch].find(&:available?) || selectors::SelectWatch
    assert_equal best, watch.choose(nil)
    assert_equal selectors::NIOWatch, watch.choose("nio4r") if selectors::NIOWatch.available?
    assert_equal selectors::EpollWatch, watch.choose("epoll") if selectors::EpollWatch.available?
  end

  def test_the_epoll_selector_where_the_c_path_is_off_says_why
    skip "the C path is built and on" if Heddle::EventLoop::Selectors::EpollWatch.available?

    error = assert_raises(Heddle::EventLoop::IOWatch::SelectorError) { Heddle::EventLoop::IOWatch.choose("epoll") }
    assert_match(/epoll selector is not available/, error.message)
  end

  def test_a_loop_in_another_ractor_uses_io_select
    experimental = Warning[:experimental]
    Warning[:experimental] = false
    ractor = Ractor.new { Heddle.await_readable(IO.pipe[0], within: 0.001) || Heddle::EventLoop.current.io.class.name }
    assert_equal "Heddle::EventLoop::Selectors::SelectWatch", ractor.take
  ensure
    Warning[:experimental] = experimental
  end

  def test_an_unknown_selector_is_named_in_the_error
    error = assert_raises(Heddle::EventLoop::IOWatch::SelectorError) { Heddle::EventLoop::IOWatch.choose("kqueue") }
    assert_match(/"kqueue".*select.*nio4r/, error.message)
  end
end
