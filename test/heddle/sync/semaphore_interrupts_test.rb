# frozen_string_literal: true

require "test_helper"

# Heddle::Semaphore under interrupts (docs/sync.md, "Interrupts, fuzzed"):
# threads and fibers acquire and release while Thread#raise, Thread#kill,
# ScheduledFiber#raise/#kill and with_timeout expiries land at random
# moments. After every case: every slot is back, nobody waits, never more
# than +limit+ held at once, and user code saw only the interrupt's error.
class SyncSemaphoreInterruptsTest < Minitest::Test
  include InterruptFuzz

  C = Heddle::Check

  def test_threads_raised_or_killed_anywhere_give_every_slot_back
    fuzz_interrupts(schedule(InterruptCrew::THREAD_KINDS, timeouts: false)) do |s|
      play(s) { |crew, op| crew.on_threads(&op) }
    end
  end

  # Separate from Thread#raise/#kill: on Ruby 3.1 a with_timeout outside
  # Heddle.run can crash Ruby, which would hide every other finding.
  def test_threads_under_with_timeout_give_every_slot_back
    fuzz_interrupts(schedule(InterruptCrew::THREAD_KINDS)) { |s| play(s) { |crew, op| crew.on_threads(&op) } }
  end

  def test_fibers_interrupted_anywhere_give_every_slot_back
    fuzz_interrupts(schedule(InterruptCrew::FIBER_KINDS)) { |s| play(s) { |crew, op| crew.on_fibers(&op) } }
  end

  # The cases the search found (docs/journal/sync.md, "Interrupts, fuzzed").

  # A kill racing the fiber's own end raised "already concluded" into the
  # loop (Evaluation#conclude_to from another thread).
  def test_regression_a_fiber_killed_as_it_ends
    replay_case({ actors: [{ op: :block, runs: 3, timeout_us: nil }],
                  interrupts: [{ actor: 0, kind: :fiber_kill, delay_us: 0 }], limit: 1, hold_us: 3 }) do |s|
      play(s) { |crew, op| crew.on_fibers(&op) }
    end
  end

  # A killed bare acquirer's slot never came back (count stayed 1).
  def test_regression_threads_killed_lose_no_slot
    replay_case({ actors: [{ op: :block, runs: 2, timeout_us: nil }, { op: :bare, runs: 1, timeout_us: nil },
                           { op: :block, runs: 1, timeout_us: nil }],
                  interrupts: [{ actor: 1, kind: :kill, delay_us: 0 }, { actor: 1, kind: :kill, delay_us: 0 },
                               { actor: 0, kind: :kill, delay_us: 0 }], limit: 3, hold_us: 0 }, times: 200) do |s|
      play(s) { |crew, op| crew.on_threads(&op) }
    end
  end

  # One Thread#raise at a waiter left a block-form acquirer waiting for ever.
  def test_regression_a_raise_at_a_waiter_strands_no_other
    actors = [{ op: :block, runs: 3, timeout_us: nil }] + Array.new(3) { { op: :bare, runs: 2, timeout_us: nil } }
    replay_case({ actors: actors, interrupts: [{ actor: 2, kind: :raise, delay_us: 0 }], limit: 2, hold_us: 0 },
                times: 200) do |s|
      play(s) { |crew, op| crew.on_threads(&op) }
    end
  end

  # with_timeout outside Heddle.run crashed Ruby 3.1 (SEGV in Deadline#unwatch).
  def test_regression_with_timeout_in_threads_does_not_crash
    actors = Array.new(8) { |i| { op: i.even? ? :block : :bare, runs: 4, timeout_us: i.even? ? 0 : 150 } }
    replay_case({ actors: actors, interrupts: [], limit: 2, hold_us: 24 }, times: 100) do |s|
      play(s) { |crew, op| crew.on_threads(&op) }
    end
  end

  private

  def schedule(kinds, timeouts: true)
    InterruptFuzz.schedule(ops: %i[block bare], kinds: kinds, actors: 1..8, timeouts: timeouts,
                           limit: C.integer(min: 1, max: 3), hold_us: InterruptFuzz.delay_us)
  end

  # Plays +schedule+ on a fresh semaphore (the block starts the crew) and
  # checks the semaphore once everyone stopped.
  def play(schedule)
    semaphore = Heddle::Semaphore.new(schedule[:limit])
    holders = Holders.new
    crew = InterruptCrew.new(schedule)
    yield crew, ->(actor, _index) { take(semaphore, actor[:op], holders, schedule[:hold_us]) }
    state = { count: semaphore.count, waiting: semaphore.waiting, holding: holders.inside }
    return if state.values.all?(&:zero?) && holders.most <= schedule[:limit]

    raise InterruptFuzz::Broken, "semaphore of #{schedule[:limit]} left #{state}, most held at once " \
                                 "#{holders.most}; runs #{crew.logs.inspect}"
  end

  # One op: the block form, or a bare acquire and release in the idiom a
  # thread needs (no interrupt between a bare acquire's return and its
  # ensure; the waits stay interruptible).
  def take(semaphore, form, holders, hold_us)
    return semaphore.acquire { holders.hold(hold_us) } if form == :block

    Thread.handle_interrupt(Object => :on_blocking) do
      semaphore.acquire
      begin
        Thread.handle_interrupt(Object => :immediate) { holders.hold(hold_us) }
      ensure
        semaphore.release
      end
    end
  end

  # Counts the holders inside, and the most at once.
  class Holders
    attr_reader :inside, :most

    def initialize
      @inside = 0
      @most = 0
    end

    # Holds for +micros+; the count is kept right whatever interrupts the hold.
    def hold(micros)
      Thread.handle_interrupt(Object => :never) do
        @inside += 1
        @most = @inside if @inside > @most
        Thread.handle_interrupt(Object => :immediate) { sleep(micros / 1_000_000.0) }
      ensure
        @inside -= 1
      end
    end
  end
end
