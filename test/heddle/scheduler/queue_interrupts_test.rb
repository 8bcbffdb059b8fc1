# frozen_string_literal: true

require "test_helper"

# Thread::Queue and SizedQueue inside Heddle.run, under interrupts
# (docs/sync.md, "Interrupts, fuzzed"): fibers pop a Queue a feeder thread
# fills, and push into a SizedQueue a drainer thread empties, through the
# scheduler's block/unblock hooks, while ScheduledFiber#raise/#kill and
# with_timeout expiries land at random moments. After: no item lost or
# duplicated, no fiber left in the scheduler's blocked table, nobody hung.
#
# Ruby's own queues lose a wake-up when the waiter it went to is interrupted
# before it runs (plain threads too: the woken waiter has left the wait
# list, and nobody wakes the next one), so a case whose waiters stall once
# the feeder is done has its queues closed, which wakes them all; a stall
# in a case without any interrupt is still a failure.
class SchedulerQueueInterruptsTest < Minitest::Test
  include InterruptFuzz

  C = Heddle::Check

  def test_fibers_interrupted_in_queue_pop_and_push_lose_no_item
    fuzz_interrupts(InterruptFuzz.schedule(ops: %i[pop sized_push], kinds: InterruptCrew::FIBER_KINDS,
                                           max: C.integer(min: 1, max: 3), feed_us: InterruptFuzz.delay_us)) do |s|
      play(s)
    end
  end

  # Stall: no pop or push returned for this many seconds after the feeder ended.
  STALL = 0.05

  # The queues and what went through them in one case.
  Flow = Struct.new(:queue, :sized, :popped, :pushed, :drained, :total) do
    def progress = popped.size + pushed.size
  end

  private

  def play(schedule)
    flow = flow_for(schedule)
    total = flow.total
    helpers = [Thread.new { feed(flow.queue, total, schedule[:feed_us]) }, Thread.new { drain(flow) }]
    closer = Thread.new { close_when_stalled(helpers.first, flow) }
    crew = InterruptCrew.new(schedule).on_fibers { |actor, index| take(flow, actor[:op], index) }
    closer.kill.join
    finish(flow, helpers)
    check(flow, crew)
    raise InterruptFuzz::Broken, "waiters stalled with no interrupt: a wake-up was lost" if stalled?(flow, schedule)
  end

  def flow_for(schedule)
    total = schedule[:actors].sum { |actor| actor[:op] == :pop ? actor[:runs] : 0 }
    Flow.new(Thread::Queue.new, Thread::SizedQueue.new(schedule[:max]), [], [], [], total)
  end

  # Lets the helpers end: the drainer once the sized queue is closed.
  def finish(flow, helpers)
    helpers.first.join
    flow.sized.close
    helpers.last.join
  end

  def stalled?(flow, schedule)
    flow.queue.closed? && schedule[:interrupts].empty? && schedule[:actors].none? { |actor| actor[:timeout_us] }
  end

  # Closes the queues once the feeder is done and the waiters stall (see
  # the class comment).
  def close_when_stalled(feeder, flow)
    feeder.join
    seen = flow.progress
    loop do
      sleep STALL
      break if flow.progress == seen

      seen = flow.progress
    end
    [flow.queue, flow.sized].each(&:close)
  end

  def take(flow, form, index)
    form == :pop ? pop(flow) : push(flow, [index, flow.pushed.size])
  end

  # Pops one item; nil when a stall closed the queue.
  def pop(flow)
    item = flow.queue.pop
    flow.popped << item if item
  end

  def feed(queue, total, feed_us)
    total.times do |item|
      sleep(feed_us / 1_000_000.0)
      queue << item
    end
  end

  # Pops until the queue is closed and empty.
  def drain(flow)
    while (item = flow.sized.pop)
      flow.drained << item
    end
  end

  # Notes an item as pushed once the push returned (not when a stall
  # closed the queue first).
  def push(flow, item)
    flow.sized.push(item)
    flow.pushed << item
  rescue ClosedQueueError
    nil
  end

  def check(flow, crew)
    problems = problems(flow.popped + Array.new(flow.queue.size) { flow.queue.pop }, flow)
    raise InterruptFuzz::Broken, "#{problems.join('; ')}; runs #{crew.logs.inspect}" unless problems.empty?
  end

  def problems(taken, flow)
    lost = flow.pushed - flow.drained
    [("popped+left #{taken.sort} of 0...#{flow.total}" unless taken.sort == (0...flow.total).to_a),
     ("drained #{flow.drained} has duplicates" unless flow.drained.uniq.size == flow.drained.size),
     ("pushes #{lost} returned but never came out" unless lost.empty?)].compact
  end
end
