# frozen_string_literal: true

# The fault matrix's promises whose fault ends the caller (exit!, a signal to
# the caller): the caller is a ruby process of its own (SpawnedCaller).
module CallerPromises
  # How the caller ends, by fault.
  SIGNALS = { sigint_caller: "INT", sigterm_caller: "TERM" }.freeze

  def promise_program_exits(backend, fault)
    run = SpawnedCaller.new(backend, fault).tap(&:finish)
    assert_equal 4, run.status.exitstatus, run.output
    refute_includes run.lines, "ensure", "exit! runs no ensure"
    run.assert_no_worker_left(self)
  end

  def promise_caller_interrupted(backend, fault, item_ensured: true)
    run = SpawnedCaller.new(backend, fault)
    run.await("started")
    run.signal(SIGNALS.fetch(fault))
    run.finish
    assert_equal SIGNALS.fetch(fault), Signal.signame(run.status.termsig.to_i), "dies by the signal: #{run.output}"
    assert_includes run.lines, "caller raised #{fault == :sigint_caller ? 'Interrupt' : 'SignalException'}"
    assert_includes run.lines, "caller ensure"
    assert_equal item_ensured, run.lines.include?("ensure"), "the item's ensure: #{run.output}"
    run.assert_no_worker_left(self)
  end

  def promise_caller_terminated(backend, fault) = promise_caller_interrupted(backend, fault)

  def promise_caller_interrupted_workers_killed(backend, fault)
    promise_caller_interrupted(backend, fault, item_ensured: false)
  end

  def promise_caller_terminated_workers_killed(backend, fault)
    promise_caller_interrupted(backend, fault, item_ensured: false)
  end
end
