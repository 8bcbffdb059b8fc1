# frozen_string_literal: true

require "rbconfig"
require_relative "worker_counts"
require_relative "dropped_pools"
require_relative "fault_matrix"
require_relative "spawned_caller"
require_relative "ensure_log"
require_relative "fault_promises"
require_relative "caller_promises"
require_relative "fork_promises"

# What each promise of the fault matrix (FaultMatrix) asserts. A cell maps
# items [0, 1, 2] on a 2-worker pool whose block does the fault on item 1
# and notes its ensure block in an EnsureLog; every cell gives a result or
# an error within LIMIT seconds and leaves no thread, descriptor, child or
# zombie behind (WorkerCounts). Faults aimed at the caller run the caller
# in a ruby process of its own (SpawnedCaller).
module FaultCells
  include WorkerCounts
  include FaultPromises
  include DroppedPools
  include CallerPromises
  include ForkPromises

  # Seconds any cell may take: a hang fails the cell instead of the suite.
  LIMIT = 20

  # What item 1 does, by fault (the other items return themselves).
  ACTS = {
    raise: -> { raise KeyError, "fault" },
    exit: -> { exit 3 },
    exit!: -> { exit! 4 },
    thread_exit: -> { Thread.exit },
    throw: -> { throw :nowhere },
    sigkill_worker: -> { Process.kill(:KILL, Process.pid) && sleep(30) },
    sigterm_worker: -> { Process.kill(:TERM, Process.pid) && sleep(30) },
    sigint_worker: -> { Process.kill(:INT, Process.pid) && sleep(30) },
    unmarshalable_result: -> { -> {} },
    unmarshalable_error: -> { raise(RuntimeError.new("fault").tap { |e| e.instance_variable_set(:@io, $stdout) }) },
    item_timeout: -> { sleep 30 },
    map_timeout: -> { sleep 30 }
  }.freeze

  # The outcome of a bounded call: its value or error, or the end of its thread.
  Outcome = Struct.new(:value, :error, :thread_ended)

  EnsureLog = ::EnsureLog

  def check_cell(backend, fault, promise)
    skip "#{backend} cannot run on Ruby #{RUBY_VERSION} here" unless FaultMatrix.available?(backend)
    __send__("promise_#{promise}", backend, fault)
  end

  def items(fault) = fault == :unmarshalable_item ? [0, -> { 1 }, 2] : [0, 1, 2]

  # Item 1 does the fault and notes its ensure block.
  def handler(fault, log)
    act = ACTS[fault]
    lambda do |x|
      next x.call if x.is_a?(Proc)
      next x unless x == 1

      begin
        act.call
      ensure
        log.note
      end
    end
  end

  # Runs the cell with a 2-worker pool, checks the pool still serves, shuts
  # it down and checks nothing was left behind.
  def within_cell(backend, fault, **options)
    log = EnsureLog.new(backend)
    before = worker_counts
    pool = Heddle::Pool.new(worker: backend, size: 2, **options, &handler(fault, log))
    yield pool, log
    assert_equal [0, 2], bounded { pool.map([0, 2]) }.value, "the pool still serves" unless pool.shutdown?
    pool.shutdown(kill: true)
    Heddle::Workers::Processes::Backend.drain_reaper
    assert_nothing_leaked(before)
  ensure
    pool&.shutdown(kill: true)
    log&.close
  end

  # Runs the block on a thread of its own, for at most LIMIT seconds.
  # @return [Outcome]
  def bounded
    outcome = Outcome.new(nil, nil, true)
    thread = Thread.new do
      outcome.value = yield
      outcome.thread_ended = false
    rescue Exception => e # rubocop:disable Lint/RescueException -- SystemExit and the like are outcomes here
      outcome.error = e
      outcome.thread_ended = false
    end
    thread.join(LIMIT) or flunk "no result or error within #{LIMIT} s"
    outcome
  ensure
    thread&.kill
  end

  # The outcome's error is Errors whose only failed item is 1, of klass;
  # items 0 and 2 have their results.
  def assert_item_error(outcome, klass)
    error = outcome.error
    assert_kind_of Heddle::Workers::Errors, error, "the map's error (#{outcome.value.inspect})"
    assert_equal [1], error.errors.keys
    assert_kind_of klass, error.errors[1]
    assert_equal [0, nil, 2], error.results
    error
  end

  def wait_for(what)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + LIMIT
    sleep 0.02 until yield || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
    assert yield, "#{what} within #{LIMIT} s"
  end
end
