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

  class Boom < StandardError; end

  CALLS = 5

  def test_a_raise_as_a_fiber_takes_a_queued_call_loses_no_start
    assert_chain_survives(:take_job) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_and_forget(i) }
  end

  def test_a_raise_as_a_queued_call_is_handed_over_loses_no_start
    assert_chain_survives(:__chain_into__) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_and_forget(i) }
  end

  def test_a_raise_as_the_loop_chains_a_queued_call_loses_no_start
    assert_chain_survives(:chain) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_and_forget(i) }
  end

  def test_a_raise_as_a_fiber_takes_a_bare_proc_loses_no_start
    assert_chain_survives(:take_job) { |ran, i| Heddle.concurrent_proc { ran << i }.call_and_forget }
  end

  def test_a_raise_as_a_bare_proc_is_handed_over_loses_no_start
    assert_chain_survives(:__chain_into__) { |ran, i| Heddle.concurrent_proc { ran << i }.call_and_forget }
  end

  def test_a_raise_as_the_loop_chains_a_bare_proc_loses_no_start
    assert_chain_survives(:chain) { |ran, i| Heddle.concurrent_proc { ran << i }.call_and_forget }
  end

  # The same proc queued again and again: the entry after the one taken is
  # the same object, so only the loop's head tells them apart.
  def test_a_raise_as_a_fiber_takes_a_proc_queued_again_loses_no_start
    shared = nil
    assert_chain_survives(:take_job) do |ran, _|
      (shared ||= Heddle.concurrent_proc { ran << ran.size }).call_and_forget
    end
  end

  def test_a_raise_as_the_loop_chains_a_proc_queued_again_loses_no_start
    shared = nil
    assert_chain_survives(:chain) do |ran, _|
      (shared ||= Heddle.concurrent_proc { ran << ran.size }).call_and_forget
    end
  end

  def test_a_raise_as_a_fiber_takes_an_evaluation_loses_no_start
    assert_chain_survives(:take_job) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_detached(i) }
  end

  def test_a_raise_as_an_evaluation_is_handed_over_loses_no_start
    assert_chain_survives(:__chain_into__) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_detached(i) }
  end

  def test_a_raise_as_the_loop_chains_an_evaluation_loses_no_start
    assert_chain_survives(:chain) { |ran, i| Heddle.concurrent_proc { |n| ran << n }.call_detached(i) }
  end

  private

  # Queues CALLS starts with the block (the first one's fiber chains the
  # rest), lets the interrupt land at +moment+ of the first chain, then
  # runs the loop again.
  def assert_chain_survives(moment, &)
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
