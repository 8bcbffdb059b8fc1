# frozen_string_literal: true

# Heddle.with_timeout: see docs/scheduler.md.
module Heddle
  class << self
    # Runs the block; if it still waits after +seconds+, the block is
    # unwound from the wait it is in (its ensure blocks run; a
    # `rescue => e` in it does not catch the unwinding) and this method
    # raises {Heddle::Evaluation::TimeoutError} (the class every heddle wait
    # raises when its +within:+ passes). Works in any fiber: inside
    # {Heddle.run}, in a concurrent proc, on a thread's root fiber; and around
    # every wait, heddle's own or the scheduler's (sleep, IO reads and writes,
    # Queue#pop, Mutex#lock, Process.wait, ...).
    #
    # Unlike Timeout.timeout, it makes no thread outside Heddle.run and its
    # error is heddle's. Code that
    # runs without waiting (a CPU loop, a C call that blocks) is not
    # interrupted: the timeout takes effect at its next wait.
    #
    # @param seconds [Numeric] at least 0; Float::INFINITY: no limit
    # @yieldreturn [Object]
    # @return [Object] the block's value
    # @raise [Heddle::Evaluation::TimeoutError] when the block still waits after +seconds+
    # @raise [TypeError] when +seconds+ is not a real number
    # @raise [ArgumentError] when +seconds+ is negative or NaN, or no block is given
    # @example
    #   Heddle.run do
    #     Heddle.with_timeout(0.01) { Queue.new.pop }
    #   rescue Heddle::Evaluation::TimeoutError => e
    #     e.message # => "Heddle.with_timeout: the block still waited after 0.01 second(s)"
    #   end
    def with_timeout(seconds, &block)
      Scheduler::Deadline.seconds!(seconds)
      raise ArgumentError, "with_timeout needs a block" unless block
      return yield if seconds == Float::INFINITY

      message = "Heddle.with_timeout: the block still waited after #{seconds} second(s)"
      deadline = Scheduler::Deadline.new(Fiber.current, Evaluation::TimeoutError, message, deferred: true)
      deadline.arm(EventLoop.current, seconds).run(&block)
    end
  end
end
