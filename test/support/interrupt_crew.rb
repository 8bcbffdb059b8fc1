# frozen_string_literal: true

require_relative "interrupt_fuzz"

# Plays one schedule of {InterruptFuzz}: its actors run an op (the block) on
# threads, or on scheduled fibers under Heddle.run, while an interrupter
# thread fires the schedule's interrupts at them; every wait is bounded. Then
# it checks what user code saw: each run of the op ended (:ok) or raised the
# interrupt's error or with_timeout's TimeoutError, nothing else reached the
# actor (an internal class, another error), and nobody hung.
class InterruptCrew
  # Seconds for a whole case before it counts as a hang: schedules last
  # milliseconds, the 2 shared cores are noisy.
  HANG_LIMIT = Float(ENV.fetch("HEDDLE_FUZZ_HANG_LIMIT", "10"))
  # Interrupt kinds: at threads, and at scheduled fibers.
  THREAD_KINDS = %i[raise kill].freeze
  FIBER_KINDS = %i[fiber_raise fiber_kill].freeze
  KILLS = %i[kill fiber_kill].freeze
  # Seconds the loop may take to settle once the fibers concluded.
  SETTLE = 2
  # What one run of the op may end with, besides :ok.
  EXPECTED = [InterruptFuzz::Interrupted, Heddle::Evaluation::TimeoutError].freeze

  # @return [Array<Array>] per actor, each run's outcome (:ok or an error class)
  attr_reader :logs

  # @param schedule [Hash] from {InterruptFuzz.schedule}
  def initialize(schedule)
    @schedule = schedule
    @actors = schedule[:actors]
    @logs = Array.new(@actors.size) { [] }
    @escaped = Array.new(@actors.size)
    @killed = Array.new(@actors.size, false)
  end

  # Plays the schedule on one thread per actor.
  # @yieldparam actor [Hash] @yieldparam index [Integer]
  # @return [self]
  # @raise [InterruptFuzz::Broken] on a hang or an unexpected error
  def on_threads(&operation)
    threads = @actors.each_with_index.map do |actor, index|
      Thread.new { act(actor, index, &operation) }.tap { |thread| thread.report_on_exception = false }
    end
    interrupter = fire_at(threads)
    join_all(threads + [interrupter])
    threads.each_with_index { |thread, index| late(thread, index) }
    check!
  end

  # Plays the schedule on one scheduled fiber per actor, under Heddle.run
  # on a thread of its own, then runs +inside+ in that loop: the loop's
  # registries must be empty by then.
  # @param inside [Proc, nil] more checks, in the loop once the fibers ended
  # @yieldparam actor [Hash] @yieldparam index [Integer]
  # @return [self]
  # @raise [InterruptFuzz::Broken]
  def on_fibers(inside: nil, &operation)
    host = Thread.new do
      Heddle.run do
        fibers = @actors.each_with_index.map { |actor, index| Fiber.schedule { act(actor, index, &operation) } }
        interrupter = fire_at(fibers)
        fibers.each { |fiber| fiber.evaluation.await_result { |result| result } }
        interrupter.join
        settled_loop!
        inside&.call
      end
    end
    host.report_on_exception = false
    join_all([host])
    host.value
    check!
  end

  # @return [Boolean] whether an interrupt of kind +kind+ was aimed at actor +index+
  def aimed?(index, *kinds)
    @schedule[:interrupts].any? { |i| i[:actor] % @actors.size == index && kinds.include?(i[:kind]) }
  end

  private

  # An actor: runs its op as often as drawn, each run under with_timeout
  # when drawn, recording how each ended.
  def act(actor, index, &operation)
    actor[:runs].times { @logs[index] << attempt(actor, index, &operation) }
  rescue Exception => e # rubocop:disable Lint/RescueException -- whatever reached user code is the finding
    @escaped[index] = e
  end

  def attempt(actor, index, &operation)
    if (timeout = actor[:timeout_us])
      Heddle.with_timeout(timeout / 1_000_000.0) { operation.call(actor, index) }
    else
      operation.call(actor, index)
    end
    :ok
  rescue *EXPECTED => e
    e.class
  end

  # The interrupter: one thread firing each interrupt after its delay.
  def fire_at(targets)
    Thread.new do
      @schedule[:interrupts].each do |interrupt|
        delay = interrupt[:delay_us]
        delay.zero? ? Thread.pass : sleep(delay / 1_000_000.0)
        index = interrupt[:actor] % targets.size
        fire(targets[index], interrupt[:kind], index)
      end
    end
  end

  def fire(target, kind, index)
    if KILLS.include?(kind)
      @killed[index] = true
      target.kill
    elsif target.alive? # a Thread, or a ScheduledFiber
      target.raise(InterruptFuzz::Interrupted, "interrupt aimed at actor #{index}")
    end
  rescue FiberError, ThreadError
    nil # it ended first
  end

  # Joins every thread within HANG_LIMIT in all; a thread still running then
  # is a hang, reported with where it waits.
  def join_all(threads)
    deadline = InterruptFuzz.now + HANG_LIMIT
    stuck = threads.reject { |thread| thread.join([deadline - InterruptFuzz.now, 0].max) rescue true } # rubocop:disable Style/RescueModifier
    return if stuck.empty?

    where = stuck.map { |thread| (thread.backtrace || []).first(12).join("\n    ") }
    stuck.each(&:kill)
    raise InterruptFuzz::Broken, "hang: #{stuck.size} thread(s) still running after #{HANG_LIMIT} s, at\n    " \
                                 "#{where.join("\n  and\n    ")}\n  logs #{@logs.inspect}"
  end

  # A raise that lands after the actor's last rescue ended its thread:
  # harmless if it is the interrupt's own error.
  def late(thread, index)
    thread.join(0)
  rescue Exception => e # rubocop:disable Lint/RescueException -- see act
    @escaped[index] ||= e
  end

  # The fibers have ended: nothing may be left in the loop's registries
  # once their ensure blocks are done (a killed fiber's evaluation concludes
  # at once, its ensure runs after, and may wait: a pool's shutdown).
  def settled_loop!
    deadline = InterruptFuzz.now + SETTLE
    Heddle.wait(0.001) until (settled = loop_registries).sum.zero? || InterruptFuzz.now > deadline
    return if settled.sum.zero?

    raise InterruptFuzz::Broken, "the loop still has #{settled[0]} IO waiter(s) and #{settled[1]} blocked fiber(s)"
  end

  # @return [Array(Integer, Integer)] IO waiters, fibers in the scheduler's blocked table
  def loop_registries
    [Heddle::EventLoop.current.io.waiting, Fiber.scheduler.instance_variable_get(:@blocked).size]
  end

  def check!
    @escaped.each_with_index do |error, index|
      next if error.nil? || error.is_a?(InterruptFuzz::Interrupted)
      next if error.is_a?(Heddle::Proc::Evaluation::Cancelled) && @killed[index] # a kill unwinding the fiber

      raise InterruptFuzz::Broken, "actor #{index} (#{@actors[index].inspect}) got #{error.class}: " \
                                   "#{error.message}\n    #{(error.backtrace || []).first(8).join("\n    ")}"
    end
    self
  end
end
