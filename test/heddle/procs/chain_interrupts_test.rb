# frozen_string_literal: true

require "test_helper"

# An interrupt landing as a pooled fiber that finished its job takes the
# round's next start in place (EventLoop#chain), before that job begins:
# after it is rescued and the loop runs again, every start queued ran
# exactly once, every evaluation concluded, and the loop's fiber count
# matches its fibers (none live, none lost, none pooled twice). Three
# moments: as the fiber took the job (PooledFiber#take_job returns), as the
# entry handed it over (its __chain_into__ returns, the queue's head not
# yet past it), and as EventLoop#chain returns (the head past it).
class ChainInterruptsTest < Minitest::Test
  include QuietProcErrors
  include StartSurvival

  def test_a_raise_as_a_fiber_takes_a_queued_call_loses_no_start
    assert_starts_survive(:take_job) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_and_forget(i) }
  end

  def test_a_raise_as_a_queued_call_is_handed_over_loses_no_start
    assert_starts_survive(:__chain_into__) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_and_forget(i) }
  end

  def test_a_raise_as_the_loop_chains_a_queued_call_loses_no_start
    assert_starts_survive(:chain) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_and_forget(i) }
  end

  def test_a_raise_as_a_fiber_takes_a_bare_proc_loses_no_start
    assert_starts_survive(:take_job) { |ran, i| Heddle.concurrent_proc { ran << i }.call_and_forget }
  end

  def test_a_raise_as_a_bare_proc_is_handed_over_loses_no_start
    assert_starts_survive(:__chain_into__) { |ran, i| Heddle.concurrent_proc { ran << i }.call_and_forget }
  end

  def test_a_raise_as_the_loop_chains_a_bare_proc_loses_no_start
    assert_starts_survive(:chain) { |ran, i| Heddle.concurrent_proc { ran << i }.call_and_forget }
  end

  # The same proc queued again and again: the entry after the one taken is
  # the same object, so only the loop's head tells them apart.
  def test_a_raise_as_a_fiber_takes_a_proc_queued_again_loses_no_start
    shared = nil
    assert_starts_survive(:take_job) do |ran, _|
      (shared ||= Heddle.concurrent_proc { ran << ran.size }).call_and_forget
    end
  end

  def test_a_raise_as_the_loop_chains_a_proc_queued_again_loses_no_start
    shared = nil
    assert_starts_survive(:chain) do |ran, _|
      (shared ||= Heddle.concurrent_proc { ran << ran.size }).call_and_forget
    end
  end

  def test_a_raise_as_a_fiber_takes_an_evaluation_loses_no_start
    assert_starts_survive(:take_job) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_detached(i) }
  end

  def test_a_raise_as_an_evaluation_is_handed_over_loses_no_start
    assert_starts_survive(:__chain_into__) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_detached(i) }
  end

  def test_a_raise_as_the_loop_chains_an_evaluation_loses_no_start
    assert_starts_survive(:chain) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_detached(i) }
  end

  private

  # Runs the block with one Boom armed at the return of the method named
  # +moment+ when it hands over or takes a start, in this thread.
  def interrupting_once(moment, &)
    me = Thread.current
    fired = false
    trace = TracePoint.new(:return) do |tp|
      next if fired || !Thread.current.equal?(me) || tp.method_id != moment
      next if moment != :take_job && !tp.return_value.equal?(true) # a refused chain took nothing

      fired = true
      raise Boom
    end
    trace.enable(&)
  end
end
