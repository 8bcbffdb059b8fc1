# frozen_string_literal: true

require "test_helper"

# Heddle::Promise waits under interrupts (docs/sync.md, "Interrupts, fuzzed"):
# threads or fibers wait on one promise (wait, value, value!, timed or not)
# while another thread resolves it at a random moment and interrupts land
# around that. After: each wait gave the right answer or the interrupt's
# error, nobody is left registered on the promise, and nobody hung.
class PromiseInterruptsTest < Minitest::Test
  include InterruptFuzz

  C = Heddle::Check

  # What the resolver rejects with: the one error a value may raise.
  class Rejected < StandardError; end

  OPS = %i[wait wait_timed value value_timed value_bang value_bang_timed].freeze

  def test_threads_interrupted_in_a_promise_wait_leave_no_waiter
    fuzz_interrupts(schedule(InterruptCrew::THREAD_KINDS, timeouts: false)) do |s|
      play(s) { |crew, op| crew.on_threads(&op) }
    end
  end

  def test_threads_under_with_timeout_in_a_promise_wait_leave_no_waiter
    fuzz_interrupts(schedule(InterruptCrew::THREAD_KINDS)) { |s| play(s) { |crew, op| crew.on_threads(&op) } }
  end

  def test_fibers_interrupted_in_a_promise_wait_leave_no_waiter
    fuzz_interrupts(schedule(InterruptCrew::FIBER_KINDS)) { |s| play(s) { |crew, op| crew.on_fibers(&op) } }
  end

  private

  def schedule(kinds, timeouts: true)
    InterruptFuzz.schedule(ops: OPS, kinds: kinds, timeouts: timeouts,
                           resolution: C.one_of(:fulfill, :reject), resolve_us: InterruptFuzz.delay_us)
  end

  def play(schedule)
    promise = Heddle::Promise.new
    resolver = Thread.new do
      sleep(schedule[:resolve_us] / 1_000_000.0)
      schedule[:resolution] == :fulfill ? promise.fulfill(:value) : promise.reject(Rejected.new("rejected"))
    end
    crew = InterruptCrew.new(schedule)
    yield crew, ->(actor, _index) { take(promise, actor[:op]) }
    resolver.join
    waiters = promise.instance_variable_get(:@waiters)
    return if waiters.nil? || waiters == []

    raise InterruptFuzz::Broken, "#{promise.inspect} still has waiter(s) #{waiters.inspect}; runs #{crew.logs.inspect}"
  end

  # One wait; raises Broken when it answers wrong (a timed wait may time
  # out: the resolver may not have run yet).
  def take(promise, form)
    answer = begin
      wait(promise, form)
    rescue Rejected
      :rejected
    end
    return if answer == expected(promise, form)

    raise InterruptFuzz::Broken, "#{form} answered #{answer.inspect} on #{promise.inspect}"
  end

  def wait(promise, form)
    case form
    when :wait then promise.wait
    when :wait_timed then promise.wait(1)
    when :value then promise.value
    when :value_timed then promise.value(1)
    when :value_bang then promise.value!
    when :value_bang_timed then promise.value!(1)
    end
  end

  # Every wait ends resolved: the resolver runs within milliseconds, far
  # inside a timed wait's second.
  def expected(promise, form)
    return true if form.start_with?("wait")

    promise.fulfilled? ? :value : :rejected
  end
end
