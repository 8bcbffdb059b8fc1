# frozen_string_literal: true

require_relative "../error"
require_relative "../procs"
require_relative "deadline"

# Heddle.with_timeout: see docs/scheduler.md.
module Heddle
  class << self
    # Runs the block; if it is still running after +seconds+, the block is
    # unwound from where it is (its ensure blocks run; a `rescue => e` in it
    # does not catch the unwinding) and this method raises
    # {Heddle::Evaluation::TimeoutError} (the class every heddle wait raises
    # when its +within:+ passes). It bounds the block everywhere:
    #
    # - inside {Heddle.run} (a non-blocking fiber under heddle's scheduler):
    #   a loop timer unwinds the block at the wait it is in, heddle's own or
    #   the scheduler's (sleep, IO, Queue#pop, Mutex#lock, Process.wait, ...);
    # - where no scheduler sees the blocking calls (a plain thread, a fiber
    #   without a scheduler, a blocking fiber): the same loop timer for
    #   heddle's waits, and a watchdog thread that interrupts a blocking
    #   call (a pipe read, Net::HTTP) with Thread#raise, as Timeout does;
    # - under another Fiber scheduler: that scheduler's +timeout_after+ (one
    #   without that optional hook is refused at once with {Heddle::Error}).
    #
    # Code that runs without waiting (a CPU loop, a C call that holds the
    # GVL) is interrupted at its next wait, or by the watchdog where the
    # thread lets Ruby interrupt it.
    #
    # @param seconds [Numeric] at least 0; Float::INFINITY: no limit
    # @yieldreturn [Object]
    # @return [Object] the block's value
    # @raise [Heddle::Evaluation::TimeoutError] when the block still runs after +seconds+
    # @raise [TypeError] when +seconds+ is not a real number
    # @raise [ArgumentError] when +seconds+ is negative or NaN, or no block is given
    # @raise [Heddle::Error] under another Fiber scheduler that has no timeout_after
    # @example
    #   Heddle.run do
    #     Heddle.with_timeout(0.01) { Queue.new.pop }
    #   rescue Heddle::Evaluation::TimeoutError => e
    #     e.message # => "Heddle.with_timeout: the block still waited after 0.01 second(s)"
    #   end
    # @example Outside Heddle.run, around a blocking read
    #   reader, _writer = IO.pipe
    #   Heddle.with_timeout(0.01) { reader.read(1) }
    #   # raises Heddle::Evaluation::TimeoutError
    def with_timeout(seconds, &block)
      Scheduler::Deadline.seconds!(seconds)
      raise ArgumentError, "with_timeout needs a block" unless block
      return yield if seconds == Float::INFINITY

      message = "Heddle.with_timeout: the block still waited after #{seconds} second(s)"
      scheduler = Fiber.current.blocking? ? nil : Fiber.scheduler
      return foreign_timeout(scheduler, seconds, message, &block) if foreign?(scheduler)

      deadline = Scheduler::Deadline.new(Fiber.current, Evaluation::TimeoutError, message, deferred: true)
      deadline.arm(EventLoop.current, seconds)
      deadline.watch(Evaluation.current, seconds) unless scheduler # no scheduler sees this fiber's blocking calls
      deadline.run(&block)
    end

    private

    # Another library's Fiber scheduler: heddle's loop does not run under it.
    def foreign?(scheduler)
      scheduler && !scheduler.is_a?(Scheduler)
    end

    # Under another scheduler only its timeout_after can interrupt its waits
    # (a Thread#raise would land in its reactor); timeout_after is an
    # optional hook, so a scheduler without it is refused before the block runs.
    def foreign_timeout(scheduler, seconds, message, &)
      unless scheduler.respond_to?(:timeout_after)
        raise Error, "Heddle.with_timeout cannot bound a block under #{scheduler.class}: that Fiber scheduler " \
                     "has no timeout_after hook. Use its own timeout, or run the block in Heddle.run."
      end

      scheduler.timeout_after(seconds, Evaluation::TimeoutError, message, &)
    end
  end
end
