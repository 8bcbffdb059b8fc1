# frozen_string_literal: true

require "test_helper"

# Pool maps under interrupts (docs/sync.md, "Interrupts, fuzzed"): callers
# (threads, or fibers under Heddle.run) map items over one Heddle::Pool or
# with Heddle.map (thread, fiber and process workers) while interrupts hit
# the caller mid-map. After: every map answered all its results, right and
# in order, or the interrupt's error (never a result missing or twice); the
# pool's next map is right; once it is shut down, no thread, descriptor or
# child process is left behind (test/support/worker_counts.rb).
class WorkersMapInterruptsTest < Minitest::Test
  include InterruptFuzz
  include WorkerCounts

  C = Heddle::Check

  WORKERS = %i[thread fiber process].freeze
  # Seconds the workers get to wind down after a shutdown.
  SETTLE = 5

  # Descriptors a spare nio4r selector holds at most (epoll and a wake-up
  # pipe): a loop that closes hands its selector to the next one
  # (lib/heddle/heddle/loop/selectors/selector_reserve.rb).
  SPARE_FDS = 3

  def test_threads_interrupted_mid_map_get_every_result_or_the_interrupt
    fuzz_interrupts(schedule(InterruptCrew::THREAD_KINDS, timeouts: false)) do |s|
      play(s) { |crew, op| crew.on_threads(&op) }
    end
  end

  def test_threads_under_with_timeout_mid_map_get_every_result_or_the_timeout
    fuzz_interrupts(schedule(InterruptCrew::THREAD_KINDS)) { |s| play(s) { |crew, op| crew.on_threads(&op) } }
  end

  def test_fibers_interrupted_mid_map_get_every_result_or_the_interrupt
    fuzz_interrupts(schedule(InterruptCrew::FIBER_KINDS)) { |s| play(s) { |crew, op| crew.on_fibers(&op) } }
  end

  private

  def schedule(kinds, timeouts: true)
    InterruptFuzz.schedule(ops: %i[pool_map heddle_map], kinds: kinds, actors: 1..3, timeouts: timeouts,
                           worker: C.one_of(*WORKERS), items: C.integer(min: 0, max: 8),
                           item_us: InterruptFuzz.delay_us)
  end

  def play(schedule)
    spares = spare_selectors
    before = worker_counts
    items = (1..schedule[:items]).to_a
    handler = ->(item) { work(item, schedule[:item_us]) }
    pool = Heddle::Pool.new(worker: schedule[:worker], size: 2, &handler)
    crew = InterruptCrew.new(schedule)
    yield crew, ->(actor, _index) { map(actor[:op], pool, schedule[:worker], items, &handler) }
    next_map!(pool, items)
    nothing_left!(before, spares, crew)
  end

  def nothing_left!(before, spares, crew)
    before.fds += SPARE_FDS * (spare_selectors - spares) # kept for the next loop, not leaked
    left = settle_counts(before, limit: SETTLE)
    return unless left.started_since?(before)

    raise InterruptFuzz::Broken, "the pool left #{left} (before #{before}); runs #{crew.logs.inspect}"
  end

  def spare_selectors = Heddle::EventLoop::Selectors::SelectorReserve.current.size

  # The pool's next map is right; then it is shut down.
  def next_map!(pool, items)
    again = pool.map(items)
    raise InterruptFuzz::Broken, "the next map answered #{again.inspect}" unless again == expected(items)
  ensure
    pool.shutdown
  end

  # The handler: a wait of +micros+, then the item doubled.
  def work(item, micros)
    sleep(micros / 1_000_000.0)
    item * 2
  end

  def map(form, pool, worker, items, &)
    results = form == :pool_map ? pool.map(items) : Heddle.map(items, worker: worker, size: 2, &)
    raise InterruptFuzz::Broken, "#{form} answered #{results.inspect} for #{items.inspect}" \
      unless results == expected(items)
  end

  def expected(items) = items.map { |item| item * 2 }
end
