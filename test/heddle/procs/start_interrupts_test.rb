# frozen_string_literal: true

require "test_helper"

# An interrupt landing as the loop starts a queued proc in a pooled fiber
# (call_and_forget with and without arguments, call_detached): after it is
# rescued and the loop runs again, every start queued ran exactly once, and
# the loop's fiber count matches its fibers (none live, every one pooled).
# Two moments: just before the pooled fiber is resumed (the call of
# Fiber#resume), and as the pooled fiber switches in, before its job begins
# (where a Thread#raise that arrived while the fiber last ran lands).
class StartInterruptsTest < Minitest::Test
  include QuietProcErrors

  class Boom < StandardError; end

  CALLS = 5

  def test_a_raise_before_a_queued_calls_fiber_is_resumed_loses_no_start
    assert_starts_survive(:before_resume) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_and_forget(i) }
  end

  def test_a_raise_as_a_queued_calls_fiber_switches_in_loses_no_start
    assert_starts_survive(:switch_in) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_and_forget(i) }
  end

  def test_a_raise_before_a_bare_procs_fiber_is_resumed_loses_no_start
    assert_starts_survive(:before_resume) { |ran, i| Heddle.concurrent_proc { ran << i }.call_and_forget }
  end

  def test_a_raise_as_a_bare_procs_fiber_switches_in_loses_no_start
    assert_starts_survive(:switch_in) { |ran, i| Heddle.concurrent_proc { ran << i }.call_and_forget }
  end

  def test_a_raise_before_an_evaluations_fiber_is_resumed_loses_no_start
    assert_starts_survive(:before_resume) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_detached(i) }
  end

  def test_a_raise_as_an_evaluations_fiber_switches_in_loses_no_start
    assert_starts_survive(:switch_in) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_detached(i) }
  end

  private

  # Queues CALLS starts with the block, lets the interrupt land at +moment+
  # of the first one, then runs the loop again.
  def assert_starts_survive(moment, &)
    first, ran, fibers = in_a_thread { run_interrupted(moment, &) }

    assert_equal Boom, first, "the interrupt did not land"
    assert_equal (0...CALLS).to_a, ran.sort, "each queued start runs exactly once"
    assert_equal [0, true], fibers, "no fiber live or lost once the loop is idle, none pooled twice"
  end

  # @return [Array] what the interrupted wait raised, what ran, the fiber accounting
  def run_interrupted(moment)
    loop = Heddle::EventLoop.current
    warm_pool
    ran = []
    starts = Array.new(CALLS) { |i| yield ran, i }
    first = interrupting_once(moment) { capture { Heddle.wait(0) } }
    3.times { Heddle.wait(0) }
    # an evaluation left running on a fiber that never ran it times out here
    starts.each { |start| start.await_result(within: 1) if start.is_a?(Heddle::Proc::Evaluation) }
    [first, ran, [loop.fibers - loop.pool.size, loop.pool.uniq.size == loop.pool.size]]
  end

  # Idle pooled fibers, so that the starts take one (no fiber is made).
  def warm_pool
    Array.new(CALLS) { Heddle.concurrent_proc { Heddle.wait(0) }.call_detached }.each(&:await_result)
  end

  # Runs the block with one Boom armed at +moment+ of the next pooled fiber's
  # start in this thread.
  def interrupting_once(moment, &)
    me = Thread.current
    root = Fiber.current
    fired = false
    trace = TracePoint.new(moment == :switch_in ? :fiber_switch : :c_call) do |tp|
      next if fired || !Thread.current.equal?(me) || !landing?(moment, tp, root)

      fired = true
      raise Boom
    end
    trace.enable(&)
  end

  # :switch_in: into a pooled fiber; :before_resume: the root calls Fiber#resume.
  def landing?(moment, trace, root)
    return !Fiber.current.equal?(root) if moment == :switch_in

    trace.method_id == :resume && trace.self.is_a?(Fiber) && Fiber.current.equal?(root)
  end

  # Runs the block in a fresh thread (a loop of its own) of a forked child
  # and returns its value. A raise out of a TracePoint hook leaves Ruby 3.1
  # tracing for good, and later tests' threads then race (plain counters lost
  # updates): the child takes that with it.
  def in_a_thread(&)
    outcome = FuzzChild.run(60) { in_a_fresh_thread(&) }
    flunk "#{outcome.status}: #{outcome.value}" unless outcome.status == :passed
    outcome.value
  end

  def in_a_fresh_thread(&)
    thread = Thread.new(&)
    thread.report_on_exception = false
    assert thread.join(30), "the thread's waits hung"
    thread.value
  ensure
    thread&.kill
  end

  # @return [Class, Object] the class of what the block raised, else its value
  def capture
    yield
  rescue Boom => e
    e.class
  end
end
