# frozen_string_literal: true

# The fault matrix's promise for a fork inside Loom.run (FaultCells).
module ForkPromises
  # A fork inside Loom.run: the child (a copy of the parent's loop and
  # pools) makes a pool of its own and maps.
  def promise_works_in_child(backend, _fault)
    skip "the child of a fork inside Loom.run cannot block yet (issue 14, core item 3)" unless ForkPromises.fork_in_run?
    before = worker_counts
    status = Thread.new { Loom.run { Process.wait2(fork { exit!(child_maps(backend) ? 0 : 1) })[1] } }.value
    assert_equal 0, status.exitstatus
    assert_nothing_leaked(before, "the forked child")
  end

  def child_maps(backend)
    Loom.map([1, 2, 3], worker: backend, size: 2) { |x| x * 2 } == [2, 4, 6]
  rescue Exception # rubocop:disable Lint/RescueException -- the child reports by its status
    false
  end

  # Whether the child of a fork inside Loom.run can block (the core's
  # after-fork fix); asked once, in a child of its own.
  def self.fork_in_run?
    return @fork_in_run unless @fork_in_run.nil?

    @fork_in_run = Thread.new { Loom.run { Process.wait2(fork { blocks_in_child })[1].success? } }.value
  end

  def self.blocks_in_child
    sleep 0.001
    exit!(0)
  rescue Exception # rubocop:disable Lint/RescueException -- the child reports by its status
    exit!(1)
  end
end
