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
