# frozen_string_literal: true

require "test_helper"
require "timeout"

# A fork inside Heddle.run, inside a concurrent proc under it, or inside a
# concurrent proc without it: the child's only fiber is
# the forking one, and its first blocking call raised FiberError. Each check
# runs in a child that reports through a pipe; the parent waits a bounded
# time and kills a child that hangs.
class SchedulerForkChildTest < Minitest::Test
  WAIT_LIMIT = 30 # seconds: a liveness bound, not a timing claim

  PLACES = %i[in_run in_proc_in_run in_proc].freeze

  CHECKS = {
    sleep: -> { sleep(0.001).then { :slept } },
    queue_pop: lambda do
      queue = Thread::Queue.new
      Thread.new { queue << :pushed }
      queue.pop
    end,
    system: -> { system("true") },
    heddle_wait: -> { Heddle.wait(0.001) && :waited },
    concurrently: -> { Heddle.concurrently { Heddle.wait(0.001) && sleep(0.001) && :done }.await_result },
    thread_map: -> { Heddle.map([1, 2, 3], worker: :thread, size: 2) { |x| x * 2 } },
    heddle_run: lambda do
      Heddle.run do
        queue = Thread::Queue.new
        sleeper = Heddle.concurrently { sleep(0.002) && :slept }
        Heddle.concurrently { queue << :pushed }
        [queue.pop, sleeper.await_result]
      end
    end
  }.freeze

  EXPECTED = {
    sleep: :slept, queue_pop: :pushed, system: true, heddle_wait: :waited, concurrently: :done,
    thread_map: [2, 4, 6], heddle_run: %i[pushed slept]
  }.freeze

  PLACES.each do |place|
    CHECKS.each_key do |check|
      define_method(:"test_#{check}_in_a_child_forked_#{place}") do
        assert_equal [:ok, EXPECTED.fetch(check)], child_report(place, CHECKS.fetch(check))
      end
    end
  end

  def test_the_parent_loop_goes_on_while_and_after_the_child_runs
    reader, writer = IO.pipe
    result = Thread.new do
      Heddle.run do
        sleeper = Heddle.concurrently { sleep(0.005) && :parent_slept }
        check = -> { sleep(0.001).then { :child } }
        pid = Heddle.concurrently { fork { report_and_exit(reader, writer, check) } }.await_result
        [sleeper.await_result, pid]
      end
    end.value
    writer.close

    assert_equal :parent_slept, result.first
    assert_equal %i[ok child], finish_child(result.last, reader)
  end

  # Forked from the thread's blocking root fiber, the child keeps a working
  # heddle scheduler: its scheduled fibers suspend and run.
  def test_a_child_forked_from_a_blocking_fiber_keeps_its_scheduler
    check = lambda do
      kept = Fiber.scheduler.is_a?(Heddle::Scheduler)
      log = []
      Fiber.schedule { sleep(0.001).then { log << :fiber } }
      log << :main
      Fiber.set_scheduler(nil) # runs the loop until the fiber is done
      [kept, log]
    end
    report = in_thread_fork(check) { |child| Fiber.set_scheduler(Heddle::Scheduler.new) && fork(&child) }

    assert_equal [:ok, [true, %i[main fiber]]], report
  end

  def test_a_child_forked_inside_a_proc_has_no_scheduler_until_its_own_heddle_run
    check = -> { [Fiber.scheduler, Heddle.run { Fiber.scheduler.class }, Fiber.scheduler] }

    assert_equal [:ok, [nil, Heddle::Scheduler, nil]], child_report(:in_proc_in_run, check)
  end

  private

  # Forks at +place+, runs +check+ in the child and returns what it said:
  # [:ok, value] or [:error, "Class: message"].
  def child_report(place, check)
    in_thread_fork(check) do |child|
      case place
      when :in_run then Heddle.run { fork(&child) }
      when :in_proc_in_run then Heddle.run { Heddle.concurrently { fork(&child) }.await_result }
      when :in_proc then Heddle.concurrently { fork(&child) }.await_result
      end
    end
  end

  # Runs the forking block in a thread of its own (its own loop and
  # scheduler) and collects the child's report.
  def in_thread_fork(check)
    reader, writer = IO.pipe
    child = proc { report_and_exit(reader, writer, check) }
    pid = Thread.new { yield(child) }.value
    writer.close
    finish_child(pid, reader)
  end

  # In the child: never returns, never runs the parent's at_exit (minitest).
  def report_and_exit(reader, writer, check)
    reader.close
    report = begin
      [:ok, check.call]
    rescue Exception => e # rubocop:disable Lint/RescueException -- reported to the parent
      [:error, "#{e.class}: #{e.message}"]
    end
    writer.write(Marshal.dump(report))
    writer.close
    exit!(0)
  rescue Exception # rubocop:disable Lint/RescueException -- the child must not outlive its report
    exit!(1)
  end

  def finish_child(pid, reader)
    wait_bounded(pid)
    data = reader.read
    data.empty? ? [:error, "the child reported nothing"] : Marshal.load(data) # rubocop:disable Security/MarshalLoad -- our own child
  ensure
    reader.close
  end

  def wait_bounded(pid)
    Timeout.timeout(WAIT_LIMIT) { Process.wait(pid) }
  rescue Timeout::Error
    Process.kill(:KILL, pid)
    Process.wait(pid)
    flunk "the forked child hung (killed after #{WAIT_LIMIT} s)"
  end
end
