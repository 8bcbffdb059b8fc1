# frozen_string_literal: true

# The workers' fault matrix: for each backend (a row) and each fault (a
# column), the promise that backend keeps. test/heddle/workers/fault_matrix_test.rb
# turns every cell into a test (FaultCells says what each promise asserts),
# and docs/CONTRACTS.md shows the same table.
#
# Extension point: another backend joins with its own row, e.g. in a support
# file of its own:
#
#   FaultMatrix.row(:ractor, { raise: :error_itself, ... }, available: -> { ... })
#
# A promise it needs that FaultCells lacks is a `promise_<name>(backend, fault)`
# method added to FaultCells.
module FaultMatrix
  # The faults, in the table's order.
  FAULTS = {
    raise: "the block raises",
    exit: "the block calls exit(3)",
    exit!: "the block calls exit!(4)",
    thread_exit: "the block calls Thread.exit",
    throw: "the block throws a tag nobody catches",
    sigkill_worker: "SIGKILL to the worker process",
    sigterm_worker: "SIGTERM to the worker process",
    sigint_worker: "SIGINT to the worker process",
    sigint_caller: "SIGINT to the caller (a program mapping)",
    sigterm_caller: "SIGTERM to the caller",
    unmarshalable_item: "an item Marshal cannot dump (a Proc)",
    unmarshalable_result: "a result Marshal cannot dump",
    unmarshalable_error: "an error Marshal cannot dump",
    item_timeout: "an item runs past item_timeout:",
    map_timeout: "the map runs past timeout:",
    dropped: "the pool is dropped without shutdown",
    fork_in_run: "fork inside Heddle.run, then a map in the child"
  }.freeze

  # What a promise means, for docs/CONTRACTS.md; FaultCells asserts it.
  PROMISES = {
    error_itself: "the block's error, as itself, with #index, #item, #results; the item's ensure ran; the pool goes on",
    system_exit: "SystemExit (the block's status), as itself, with #index and #results; ensure ran; the pool goes on",
    program_exits: "the program ends at once with status 4, as exit! does; no ensure runs; no worker outlives it",
    caller_thread_ends: "the thread that called map ends (the block runs on it); ensure ran; the pool goes on",
    worker_died: "WorkerDiedError for that item naming the cause; the item's ensure ran; the worker is replaced",
    worker_killed: "WorkerDiedError for that item naming the cause; no ensure can run; the worker is replaced",
    uncaught_throw: "UncaughtThrowError (an ArgumentError) for that item; ensure ran; the pool goes on",
    caller_interrupted: "the map raises Interrupt in the caller; its ensure and the items' run; no worker outlives it",
    caller_terminated: "the map raises SignalException SIGTERM; its ensure and the items' run; no worker outlives it",
    caller_interrupted_workers_killed: "as caller_interrupted, but the worker processes are SIGKILLed at exit " \
                                       "(their ensure does not run)",
    caller_terminated_workers_killed: "as caller_terminated, but the worker processes are SIGKILLed at exit",
    result: "a result: nothing crosses a process boundary",
    unmarshalable: "UnmarshalableError for that item naming what could not cross; the other items' results",
    item_timeout: "Heddle::Workers::TimeoutError for that item; its ensure ran; the other items' results",
    map_timeout: "Heddle::Workers::TimeoutError with the results so far; the late item's ensure runs by shutdown",
    map_timeout_workers_killed: "Heddle::Workers::TimeoutError with the results so far; shutdown(kill: true) " \
                                "SIGKILLs the late worker (no ensure)",
    collected: "collected by GC; its finalizer stops the workers: no thread, process or descriptor left",
    works_in_child: "the child maps with a new pool of its own; the parent's loop goes on",
    n_a: "no such fault for this backend"
  }.freeze

  @rows = {}
  @available = {}

  class << self
    # @return [Hash{Symbol => Hash{Symbol => Symbol}}] backend => fault => promise
    attr_reader :rows

    # Adds a backend's row.
    # @param backend [Symbol]
    # @param cells [Hash{Symbol => Symbol}] a promise for every fault in {FAULTS}
    # @param available [#call] false when this Ruby cannot run the backend (its cells skip)
    def row(backend, cells, available: -> { true })
      missing = FAULTS.keys - cells.keys
      unknown = cells.values - PROMISES.keys
      raise ArgumentError, "#{backend}: no promise for #{missing.inspect}" unless missing.empty?
      raise ArgumentError, "#{backend}: unknown promises #{unknown.inspect}" unless unknown.empty?

      @rows[backend] = FAULTS.keys.to_h { |fault| [fault, cells.fetch(fault)] }.freeze # in the table's order
      @available[backend] = available
    end

    # @return [Boolean]
    def available?(backend) = @available.fetch(backend).call
  end

  IN_PROCESS = {
    raise: :error_itself, exit: :system_exit, exit!: :program_exits, throw: :uncaught_throw,
    sigkill_worker: :n_a, sigterm_worker: :n_a, sigint_worker: :n_a,
    sigint_caller: :caller_interrupted, sigterm_caller: :caller_terminated,
    unmarshalable_item: :result, unmarshalable_result: :result, unmarshalable_error: :error_itself,
    item_timeout: :item_timeout, map_timeout: :map_timeout, dropped: :collected, fork_in_run: :works_in_child
  }.freeze

  row :inline, IN_PROCESS.merge(thread_exit: :caller_thread_ends)
  row :fiber, IN_PROCESS.merge(thread_exit: :worker_died)
  row :thread, IN_PROCESS.merge(thread_exit: :worker_died)
  row :process, {
    raise: :error_itself, exit: :system_exit, exit!: :worker_killed,
    # Thread.exit on a process's main thread is exit (SystemExit, status 0).
    thread_exit: :system_exit, throw: :uncaught_throw,
    sigkill_worker: :worker_killed, sigterm_worker: :worker_died, sigint_worker: :worker_died,
    sigint_caller: :caller_interrupted_workers_killed, sigterm_caller: :caller_terminated_workers_killed,
    unmarshalable_item: :unmarshalable, unmarshalable_result: :unmarshalable, unmarshalable_error: :unmarshalable,
    item_timeout: :item_timeout, map_timeout: :map_timeout_workers_killed, dropped: :collected,
    fork_in_run: :works_in_child
  }
end
