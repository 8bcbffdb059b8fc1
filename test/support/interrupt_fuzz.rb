# frozen_string_literal: true

require "heddle/check"
require "heddle/check/minitest"

# Property checks, written with heddle-check, that aim interrupts (Thread#raise,
# Thread#kill, ScheduledFiber#raise and #kill, Heddle.with_timeout expiries) at
# random moments of heddle's blocking primitives (docs/sync.md, "Interrupts,
# fuzzed"). The generator draws the schedule: the actors (threads or fibers),
# the op each runs and how often, an optional with_timeout around each op, and
# the interrupts (target, kind, delay before it); {InterruptCrew} plays it.
#
# Timing decides where an interrupt lands, so one seed does not always replay
# the same: each case runs {REPEATS} times, and a failure found is kept as a
# plain regression test beside the property.
#
# The budget: each property spends about {SECONDS} looking for a failure, as
# checks of {RUNS_PER_SEED} runs each on fresh seeds; set HEDDLE_FUZZ_SECONDS
# for a longer hunt, HEDDLE_CHECK_SEED to replay one seed.
module InterruptFuzz
  C = Heddle::Check

  # What an aimed raise delivers: a user's StandardError, the only class
  # (with with_timeout's Heddle::Evaluation::TimeoutError) user code may see.
  class Interrupted < StandardError; end

  # An invariant a case broke: the property's failure, shrunk like any other.
  class Broken < StandardError; end

  # Seconds each property looks for failures (the suite has about a dozen).
  SECONDS = Float(ENV.fetch("HEDDLE_FUZZ_SECONDS", "2.5"))
  # Each case is played this often: an interrupt that landed harmlessly once
  # may land in the window the next time.
  REPEATS = Integer(ENV.fetch("HEDDLE_FUZZ_REPEATS", "2"))
  # At most this many runs of the op per actor, and interrupts per case.
  MAX_RUNS = 4
  MAX_INTERRUPTS = 8
  # While shrinking, a candidate is played up to this often (until it
  # fails): a rare window needs many tries for the shrunk case to fail too.
  SHRINK_REPEATS = Integer(ENV.fetch("HEDDLE_FUZZ_SHRINK_REPEATS", "10"))
  # Runs of each check; a fresh seed after each, until SECONDS are spent.
  RUNS_PER_SEED = 10
  # Seconds a failure may spend shrinking: candidates are whole schedules,
  # replayed REPEATS times, and a hang costs InterruptCrew::HANG_LIMIT each.
  SHRINK_SECONDS = Float(ENV.fetch("HEDDLE_FUZZ_SHRINK_SECONDS", "45"))

  include Heddle::Check::Minitest

  # @return [Float] the monotonic clock
  def self.now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  # @return [Heddle::Check::Arbitrary<Integer>] microseconds before an
  #   interrupt (or a timeout's length): 0, a few µs, up to 5 ms
  def self.delay_us
    C.frequency([1, C.constant(0)], [3, C.integer(min: 0, max: 200)], [3, C.integer(min: 0, max: 5000)])
  end

  # A schedule: +actors+ (each an op, how many times it runs, and a
  # with_timeout around each run or none) and +interrupts+ (an actor by
  # index, a kind, a delay after the previous interrupt). +extra+ adds
  # keys of the primitive's own (a limit, a hold time).
  # @param ops [Array<Symbol>]
  # @param kinds [Array<Symbol>] of InterruptCrew::KINDS
  # @param actors [Range] how many
  # @param timeouts [Boolean] whether ops run under with_timeout
  # @return [Heddle::Check::Arbitrary<Hash>]
  def self.schedule(ops:, kinds:, actors: 1..6, timeouts: true, **extra)
    timeout = timeouts ? C.frequency([2, C.constant(nil)], [1, delay_us]) : C.constant(nil)
    actor = C.fixed_hash({ op: C.one_of(*ops), runs: C.integer(min: 1, max: MAX_RUNS), timeout_us: timeout })
    interrupt = C.fixed_hash({ actor: C.nat(max: actors.max - 1), kind: C.one_of(*kinds), delay_us: delay_us })
    C.fixed_hash({ actors: C.array(actor, min: actors.min, max: actors.max),
                   interrupts: C.array(interrupt, max: MAX_INTERRUPTS), **extra })
  end

  # Checks +arbitrary+'s schedules with the block (which raises {Broken}, or
  # fails an assertion, when an invariant breaks) for {SECONDS}, a seed
  # after the other; the first failure is shrunk and fails the test with its
  # seed and minimal schedule. The search runs in a forked child
  # ({FuzzChild}): a case that crashes Ruby fails this test, naming the case.
  # @param arbitrary [Heddle::Check::Arbitrary]
  # @param seconds [Numeric] the search's budget
  # @yieldparam schedule [Hash]
  # @return [Integer] the cases run
  def fuzz_interrupts(arbitrary, seconds: SECONDS, &play)
    outcome = FuzzChild.run(seconds + SHRINK_SECONDS + (2 * InterruptCrew::HANG_LIMIT)) do
      search(arbitrary, seconds, &play)
    end
    self.assertions += 1
    flunk "#{name}: #{outcome.status}\n#{outcome.value}" unless outcome.status == :passed
    outcome.value
  end

  # Plays one schedule +times+ times in a forked child (see
  # {#fuzz_interrupts}): a failure the search found, kept as a plain
  # regression test. Timing decides where its interrupts land, hence the
  # repeats; a crash or a hang fails the test with the case.
  # @param schedule [Hash] as {.schedule} draws them
  # @param times [Integer]
  # @yieldparam schedule [Hash]
  # @return [void]
  def replay_case(schedule, times: 30, &play)
    outcome = FuzzChild.run((2 * InterruptCrew::HANG_LIMIT) + times) do
      FuzzChild.note("regression case: #{schedule.inspect}")
      times.times { play.call(schedule) }
      :ok
    end
    self.assertions += 1
    flunk "#{name}: #{outcome.status}\n#{outcome.value}" unless outcome.status == :passed
  end

  private

  def search(arbitrary, seconds, &play)
    replay = ENV.fetch("HEDDLE_CHECK_SEED", nil)
    deadline = InterruptFuzz.now + seconds
    cases = 0
    loop do
      seed = replay ? Integer(replay) : rand(2**32)
      shrinking = ShrinkClock.new(SHRINK_SECONDS)
      property = C.property(arbitrary) do |schedule|
        shrinking.play { play_case(seed, schedule, shrinking.started? ? SHRINK_REPEATS : REPEATS, &play) }
      end
      assert_property(property, seed: seed, runs: RUNS_PER_SEED, max_shrinks: 500)
      cases += RUNS_PER_SEED
      break if replay || InterruptFuzz.now > deadline
    end
    cases
  end

  def play_case(seed, schedule, repeats, &play)
    FuzzChild.note("seed #{seed}: #{schedule.inspect}")
    repeats.times { play.call(schedule) }
  end

  # Bounds shrinking: from the first failure on, candidates are played for
  # +seconds+; after that each counts as passing, so the shrinker stops
  # with the simplest failing schedule it has.
  class ShrinkClock
    # @param seconds [Float]
    def initialize(seconds)
      @seconds = seconds
      @until = nil
    end

    # @return [Boolean] whether a case failed (shrinking is under way)
    def started? = !@until.nil?

    # Plays a case unless the shrinking time is spent.
    # @return [Object] the block's value, or true once out of time
    def play
      return true if @until && InterruptFuzz.now > @until

      yield
    rescue Exception # rubocop:disable Lint/RescueException -- a failure of any kind starts the clock
      @until ||= InterruptFuzz.now + @seconds
      raise
    end
  end
end
