# frozen_string_literal: true

# For the tests of an interrupt landing as the loop starts a queued proc
# (test/heddle/procs/start_interrupts_test.rb, chain_interrupts_test.rb):
# CALLS starts queued, one Boom landing where the including test's
# +interrupting_once(moment) { ... }+ arms it, and the checks after the loop
# ran again. Each case plays in a forked child: a raise out of a TracePoint
# hook leaves Ruby 3.1 tracing for good, and later tests' threads then race
# (plain counters lose updates); the child takes that with it.
module StartSurvival
  class Boom < StandardError; end

  CALLS = 5

  private

  # Queues CALLS starts with the block, lets the interrupt land at +moment+,
  # then runs the loop again: each start ran once, no fiber lost or pooled twice.
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

  # Runs the block in a fresh thread (a loop of its own) of a forked child
  # and returns its value.
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
