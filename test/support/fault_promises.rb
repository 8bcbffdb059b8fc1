# frozen_string_literal: true

# The fault matrix's promises checked in the test process (FaultMatrix::PROMISES
# says what each means); FaultCells provides within_cell, bounded and the rest.
module FaultPromises
  def promise_error_itself(backend, fault)
    within_cell(backend, fault) do |pool, log|
      error = assert_item_error(bounded do
        pool.map(items(fault), fail_fast: false)
      end, fault == :raise ? KeyError : RuntimeError)
      assert_equal "fault", error.errors[1].message
      assert_equal 1, log.count, "the item's ensure ran"
    end
  end

  def promise_system_exit(backend, fault)
    within_cell(backend, fault) do |pool, log|
      error = bounded { pool.map(items(fault)) }.error
      assert_kind_of SystemExit, error
      assert_equal [fault == :exit ? 3 : 0, 1, 3], [error.status, error.index, error.results.size]
      assert_equal 1, log.count, "the item's ensure ran"
    end
  end

  def promise_uncaught_throw(backend, fault)
    within_cell(backend, fault) do |pool, log|
      error = assert_item_error(bounded { pool.map(items(fault), fail_fast: false) }, UncaughtThrowError)
      assert_match(/:nowhere/, error.errors[1].message)
      assert_equal 1, log.count, "the item's ensure ran"
    end
  end

  def promise_worker_died(backend, fault, ensured: 1)
    within_cell(backend, fault) do |pool, log|
      outcome = bounded { pool.map(items(fault), fail_fast: false) }
      error = assert_item_error(outcome, Heddle::Workers::WorkerDiedError)
      assert_match DEATHS.fetch(fault), error.errors[1].message
      assert_equal ensured, log.count, "the item's ensure blocks that ran"
    end
  end

  def promise_worker_killed(backend, fault) = promise_worker_died(backend, fault, ensured: 0)

  # How each death is named.
  DEATHS = {
    exit!: /exited with status 4 while running item 1 /,
    thread_exit: /item 1 \(index 1\) ended .*Thread\.exit/,
    sigkill_worker: /killed by SIGKILL while running item 1 /,
    sigterm_worker: /killed by SIGTERM while running item 1 /,
    sigint_worker: /killed by SIGINT while running item 1 /
  }.freeze

  def promise_caller_thread_ends(backend, fault)
    within_cell(backend, fault) do |pool, log|
      assert bounded { pool.map(items(fault)) }.thread_ended, "the caller's thread ended"
      assert_equal 1, log.count, "the item's ensure ran"
    end
  end

  def promise_result(backend, fault)
    within_cell(backend, fault) do |pool, _log|
      results = bounded { pool.map(items(fault), fail_fast: false) }.value
      assert_equal [0, 2], results.values_at(0, 2)
      fault == :unmarshalable_item ? assert_equal(1, results[1]) : assert_kind_of(Proc, results[1])
    end
  end

  def promise_unmarshalable(backend, fault)
    within_cell(backend, fault) do |pool, _log|
      outcome = bounded { pool.map(items(fault), fail_fast: false) }
      error = assert_item_error(outcome, Heddle::Workers::UnmarshalableError)
      assert_match(/cannot be (sent|loaded)|RuntimeError: fault/, error.errors[1].message)
    end
  end

  def promise_item_timeout(backend, fault)
    within_cell(backend, fault, item_timeout: 0.3) do |pool, log|
      outcome = bounded { pool.map(items(fault), fail_fast: false) }
      error = assert_item_error(outcome, Heddle::Workers::TimeoutError)
      assert_match(/item 1 .*took longer than 0.3 s/, error.errors[1].message)
      assert_equal 1, log.count, "the item's ensure ran"
    end
  end

  def promise_map_timeout(backend, fault, ensured: 1)
    within_cell(backend, fault) do |pool, log|
      error = bounded { pool.map(items(fault), timeout: 0.5, fail_fast: false) }.error
      assert_kind_of Heddle::Workers::TimeoutError, error
      assert_equal 3, error.results.size
      assert_nil error.results[1]
      pool.shutdown(kill: true)
      wait_for("the late item's ensure") { log.count >= ensured }
      assert_equal ensured, log.count
    end
  end

  def promise_map_timeout_workers_killed(backend, fault) = promise_map_timeout(backend, fault, ensured: 0)

  def promise_collected(backend, _fault) = assert_dropped_pools_collected(backend)
end
