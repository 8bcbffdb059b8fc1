# frozen_string_literal: true

require "test_helper"

# Heddle::Group under interrupts (docs/sync.md, "Interrupts, fuzzed"): an
# actor spawns procs into a group (with or without limit:) and waits for
# them, stops them first, or waits within a bound, while interrupts land at
# random moments; its ensure stops the group, as user code cleaning up does.
# After: nothing pending, every slot of the limit back, each proc's ensure
# run at most once, and a wait that returned gave every result in order.
class SyncGroupInterruptsTest < Minitest::Test
  include InterruptFuzz

  C = Heddle::Check

  # Rounds of the loop a stopped group may take to settle.
  SETTLE_ROUNDS = 200

  WAITS = %i[wait wait_within].freeze

  def test_fibers_interrupted_in_a_groups_wait_leave_nothing_pending
    fuzz_interrupts(schedule(WAITS, InterruptCrew::FIBER_KINDS)) { |s| play(s) { |crew, op| crew.on_fibers(&op) } }
  end

  def test_threads_interrupted_in_a_groups_wait_leave_nothing_pending
    fuzz_interrupts(schedule(WAITS, InterruptCrew::THREAD_KINDS, timeouts: false)) do |s|
      play(s) { |crew, op| crew.on_threads(&op) }
    end
  end

  # A stop before the procs started, then a wait, among the others: apart,
  # so that the interrupts above are fuzzed whatever this finds.
  def test_fibers_stopping_before_the_procs_start_leave_nothing_pending
    fuzz_interrupts(schedule(WAITS + [:stop_then_wait], InterruptCrew::FIBER_KINDS)) do |s|
      play(s) { |crew, op| crew.on_fibers(&op) }
    end
  end

  # The cases the search found (docs/journal/sync.md, "Interrupts, fuzzed").

  # A stop before the proc started, then a wait: the wait never returned
  # (pending stayed 1), in a fiber and in a thread.
  def test_regression_a_stop_before_the_procs_start_then_a_wait
    case_ = { actors: [{ op: :stop_then_wait, runs: 1, timeout_us: nil }], interrupts: [], procs: 1, limit: nil,
              hold_us: 0 }
    replay_case(case_, times: 3) { |s| play(s) { |crew, op| crew.on_fibers(&op) } }
    replay_case(case_, times: 3) { |s| play(s) { |crew, op| crew.on_threads(&op) } }
  end

  # An interrupt in the wait, before the proc started; the actor's cleanup
  # (stop) then left pending at 1 for good.
  def test_regression_interrupted_before_the_procs_start
    actors = [{ op: :wait, runs: 2, timeout_us: nil }] + Array.new(3) { { op: :wait, runs: 1, timeout_us: nil } }
    replay_case({ actors: actors, interrupts: [{ actor: 0, kind: :fiber_raise, delay_us: 0 }], procs: 1, limit: nil,
                  hold_us: 25 }, times: 50) do |s|
      play(s) { |crew, op| crew.on_fibers(&op) }
    end
  end

  private

  def schedule(ops, kinds, timeouts: true)
    InterruptFuzz.schedule(ops: ops, kinds: kinds, actors: 1..4, timeouts: timeouts,
                           procs: C.integer(min: 0, max: 5), limit: C.one_of(nil, C.integer(min: 1, max: 3)),
                           hold_us: InterruptFuzz.delay_us)
  end

  def play(schedule)
    findings = []
    crew = InterruptCrew.new(schedule)
    yield crew, ->(actor, _index) { run_group(schedule, actor[:op], findings) }
    broken = findings.reject { |finding| finding[:pending].zero? && finding[:held].zero? && finding[:ensures] <= 1 }
    broken += findings.select { |finding| finding[:results] && finding[:results] != (0...schedule[:procs]).to_a }
    return if broken.empty?

    raise InterruptFuzz::Broken, "groups left #{broken.inspect}; runs #{crew.logs.inspect}"
  end

  # One op on a fresh group; notes in +findings+ what it left once stopped
  # and settled, interrupted or not.
  def run_group(schedule, form, findings)
    finding = { op: form, pending: 0, held: 0, ensures: 0 }
    findings << finding
    group = Heddle::Group.new(limit: schedule[:limit])
    ensures = Array.new(schedule[:procs], 0)
    schedule[:procs].times { |i| group.spawn(i) { |n| proc_body(n, schedule[:hold_us], ensures) } }
    group.stop if form == :stop_then_wait
    finding[:results] = form == :wait_within ? group.wait(within: 0.5) : group.wait
    finding[:results] = nil if form == :stop_then_wait # stopped procs' results are their StoppedErrors
  ensure
    finding[:pending], finding[:held] = settle(group) if group
    finding[:ensures] = ensures&.max || 0
  end

  def proc_body(index, hold_us, ensures)
    Heddle.wait(hold_us / 1_000_000.0)
    index
  ensure
    ensures[index] += 1
  end

  # Stops what is left (user code's cleanup) and lets the loop run until
  # nothing is pending, within bounds: [pending, slots held].
  def settle(group)
    group.stop
    SETTLE_ROUNDS.times do
      break if group.empty?

      Heddle.wait(0.001)
    end
    semaphore = group.instance_variable_get(:@semaphore)
    [group.pending, semaphore ? semaphore.count : 0]
  end
end
