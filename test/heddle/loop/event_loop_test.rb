# frozen_string_literal: true

require "test_helper"
require "timeout"

class EventLoopTest < Minitest::Test
  include QuietProcErrors

  def test_one_loop_per_thread
    here = Heddle::EventLoop.current
    assert_same here, Heddle::EventLoop.current
    there = Thread.new { Heddle::EventLoop.current }.value
    refute_same here, there
  end

  def test_cancelled_within_timers_are_removed
    loop = Heddle::EventLoop.current
    before = loop.timer_count
    evaluations = Array.new(2_000) { Heddle.concurrently { Heddle.await_resume!(within: 60) } }
    Heddle.wait 0
    assert_equal before + 2_000, loop.timer_count
    evaluations.each(&:resume!)
    evaluations.each(&:await_result)
    assert_equal before, loop.timer_count
  end

  def test_timers_fire_in_order
    order = []
    [0.03, 0.01, 0.02].each { |seconds| Heddle.concurrently { Heddle.wait(seconds) && (order << seconds) } }
    Heddle.wait 0.05
    assert_equal [0.01, 0.02, 0.03], order
  end

  def test_resume_from_another_thread_is_delivered
    Timeout.timeout(5) do
      evaluation = Heddle.concurrently { Heddle.await_resume! }
      Heddle.wait 0
      Thread.new { evaluation.resume!(:hello) }.join
      assert_equal :hello, evaluation.await_result
    end
  end

  def test_root_evaluation_woken_from_another_thread
    Timeout.timeout(5) do
      root = Heddle::Evaluation.current
      thread = Thread.new do
        Thread.pass until root.waiting?
        root.resume!(:woken)
      end
      assert_equal :woken, Heddle.await_resume!(within: 4)
      thread.join
    end
  end

  def test_conclude_from_another_thread
    Timeout.timeout(5) do
      evaluation = Heddle.concurrently { Heddle.wait 10 }
      Heddle.wait 0
      Thread.new { evaluation.conclude_to(:from_thread) }.join
      assert_equal :from_thread, evaluation.await_result(within: 4)
    end
  end

  # In a subprocess: minitest's own idle threads could otherwise wake us.
  def test_waiting_with_nothing_to_wait_for_raises
    script = <<~RUBY
      require "heddle"
      begin
        Heddle.await_resume!
      rescue Heddle::EventLoop::DeadlockError
        print Heddle.wait(0) ? "raised, loop intact" : "?"
      end
    RUBY
    output = IO.popen([RbConfig.ruby, *LibRoots::FLAGS, "-e", script], err: %i[child out], &:read)
    assert_equal "raised, loop intact", output
  end

  def test_fork_child_starts_clean
    reader, writer = IO.pipe
    Heddle.concurrently do
      Heddle.wait 0.05
      writer.puts "parent-work #{Process.pid}"
    end
    pid = fork do
      Heddle.wait 0.1
      writer.puts "child-done"
      exit!(0)
    end
    Timeout.timeout(5) { Process.wait(pid) }
    Heddle.wait 0.1
    writer.close
    lines = reader.read.lines.map(&:chomp)
    assert_equal ["child-done", "parent-work #{Process.pid}"], lines
  end

  # What `require "heddle"` installs (the README says it): one module prepended
  # to Process's singleton class, hidden behind a private constant, and
  # nothing on Kernel, IO or Thread.
  # In a fresh ruby: this process may have loaded the opt-in layers.
  def test_the_fork_hook_is_the_one_module_prepended_to_process_and_private
    script = <<~RUBY
      require "heddle"
      heddle = ->(mods) { mods.select { |mod| mod.name.to_s.start_with?("Heddle") }.map(&:name) }
      hidden = begin; Heddle::EventLoop::ForkHook; false; rescue NameError; true; end
      p [heddle.(Process.singleton_class.ancestors), hidden,
         heddle.([Kernel, IO, Thread, Object, Fiber].flat_map { |k| k.ancestors + k.singleton_class.ancestors })]
    RUBY
    output = IO.popen([RbConfig.ruby, *LibRoots::FLAGS, "-e", script], err: %i[child out], &:read)
    assert_equal %([["Heddle::EventLoop::ForkHook"], true, []]\n), output
  end

  def test_push_refuses_an_entry_a_finished_proc_could_not_ask_to_chain
    loop = Heddle::EventLoop.current
    runs_only = Object.new
    def runs_only.__run__ = nil
    error = assert_raises(TypeError) { loop.push(runs_only) }

    assert_match(/__chain_into__/, error.message)
    assert_predicate loop, :idle?
  end

  def test_many_waiters_on_one_io
    reader, writer = IO.pipe
    evaluations = Array.new(3) { Heddle.concurrently { Heddle.await_readable(reader) } }
    Heddle.wait 0
    assert(evaluations.all?(&:waiting?))
    writer.write "x"
    assert_equal [true, true, true], evaluations.map(&:await_result)
  end

  # The wait's timer is due before the loop's first round (as when that
  # round is slow, e.g. while YJIT compiles it): the IO that was ready all
  # along is still served first, as in Concurrently.
  def test_io_ready_before_the_wait_runs_before_its_timer
    reader, writer = IO.pipe
    reading = Heddle.concurrent_proc { Heddle.await_readable(reader) && reader.read_nonblock(1) }.call_nonblock
    writer.write "x"
    Heddle.wait 1e-9
    assert reading.concluded?, "the reader waited past a wait that began after its IO was ready"
    assert_equal "x", reading.await_result
  end

  def test_await_readable_times_out
    reader, _writer = IO.pipe
    assert_equal :none, Heddle.await_readable(reader, within: 0.01, timeout_result: :none)
    assert Heddle.await_writable(IO.pipe[1], within: 1)
  end

  def test_closing_an_awaited_io_wakes_its_waiter_with_the_closed_stream_error
    reader, _writer = IO.pipe
    waiter = Heddle.concurrently { Heddle.await_readable(reader) }
    Heddle.wait 0
    reader.close
    error = assert_raises(IOError) { waiter.await_result(within: 1) }
    assert_equal "closed stream", error.message
  end

  def test_one_sweep_serves_a_batch_of_waits
    pipes = Array.new(20) { IO.pipe.tap { |_, writer| writer.write "x" } }
    sweeps = 0
    watch = Heddle::EventLoop.current.io
    counting = Module.new { define_method(:sweep) { (sweeps += 1) && super() } }
    watch.singleton_class.prepend(counting)
    readers = pipes.map(&:first)
    3.times { readers.each { |reader| assert Heddle.await_readable(reader) } }
    assert_operator sweeps, :<=, 20 + 2, "after the first pass, one sweep per pass"
  end

  # The loop's wake-up pipe under Thread#kill. On Ruby 3.1 a kill landing inside
  # IO.pipe closed the new descriptor and left an IO object that closed the same
  # number again when collected, by then another loop's pipe: live loops failed
  # with EBADF, EPIPE or "stream closed in another thread". Counts only.
  def test_threads_killed_at_random_moments_leave_the_other_loops_whole
    errors = Queue.new
    stop = false
    threads = Array.new(8) { waiter(errors) { stop } }
    1500.times do
      index = rand(threads.size)
      threads[index].kill
      threads[index] = waiter(errors) { stop }
      sleep(rand * 0.0005)
    end
    stop = true
    threads.each { |thread| flunk "a thread still ran after 10 s" unless thread.join(10) }

    assert_equal [], Array.new(errors.size) { errors.pop }.uniq
  end

  def test_a_wake_up_for_a_loop_whose_thread_ended_is_dropped
    loop = Thread.new { Heddle.wait(0.001) && Heddle::EventLoop.current }.value
    Heddle::EventLoop::OpenLoops.current.reap # closes the ended thread's pipe
    assert_nil loop.deliver(Object.new, :itself, nil)
  end

  private

  # Waits in its loop again and again (each wait sleeps, and wakes through
  # the pipe when another thread's with_timeout watchdog or reaper acts).
  def waiter(errors)
    Thread.new do
      until yield
        begin
          Heddle.with_timeout(0.002) { Heddle.wait(rand * 0.001) }
        rescue Heddle::Evaluation::TimeoutError
          nil
        end
      end
    rescue StandardError => e
      errors << "#{e.class}: #{e.message}"
    end
  end
end
