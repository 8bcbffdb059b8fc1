# frozen_string_literal: true

# The fault matrix's promise for a fork inside Heddle.run (FaultCells).
module ForkPromises
  # A fork inside Heddle.run: the child (a copy of the parent's loop and
  # pools) makes a pool of its own and maps.
  def promise_works_in_child(backend, _fault)
    before = worker_counts
    status = Thread.new { Heddle.run { Process.wait2(fork { exit!(child_maps(backend) ? 0 : 1) })[1] } }.value
    assert_equal 0, status.exitstatus
    assert_nothing_leaked(before, "the forked child")
  end

  def child_maps(backend)
    Heddle.map([1, 2, 3], worker: backend, size: 2) { |x| x * 2 } == [2, 4, 6]
  rescue Exception # rubocop:disable Lint/RescueException -- the child reports by its status
    false
  end
end
