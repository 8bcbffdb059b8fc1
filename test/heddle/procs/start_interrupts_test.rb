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
  include StartSurvival

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
end
