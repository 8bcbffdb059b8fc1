# frozen_string_literal: true

require_relative "error"
require_relative "runner"
require_relative "scheduler"

# Heddle.run: see docs/scheduler.md.
module Heddle
  class << self
    # Runs the block in a non-blocking heddle fiber with {Heddle::Scheduler}
    # installed on this thread, runs the thread's loop until the block and
    # everything on the loop (fibers it scheduled, concurrent procs it
    # started) are done, restores the thread's previous state and returns
    # the block's value, or raises its error.
    #
    # Inside it, plain blocking Ruby in any concurrent proc or scheduled
    # fiber suspends only that fiber. A Heddle.run inside a running one just
    # runs the block.
    #
    # @yieldreturn [Object]
    # @return [Object] the block's value
    # @raise [Exception] what the block raised
    # @raise [Scheduler::ConflictError] when another Fiber::Scheduler is installed
    # @raise [EventLoop::DeadlockError] when the fibers wait for something
    #   that can never happen
    # @example
    #   Heddle.run do
    #     sleeper = Heddle.concurrently { sleep 0.01; :slept }
    #     [:first, sleeper.await_result] # => [:first, :slept]
    #   end
    def run(&block)
      raise ArgumentError, "Heddle.run needs a block" unless block

      current = Fiber.scheduler
      return yield if current.is_a?(Scheduler) && !Fiber.current.blocking?

      if current && !current.is_a?(Scheduler)
        raise Scheduler::ConflictError,
              "another Fiber scheduler (#{current.class}) is installed on this thread; Heddle.run cannot replace " \
              "it without closing it. Call Heddle.run outside of it (for instance in a Thread.new of its own)."
      end

      Scheduler::Runner.new(current, block).call
    end
  end
end
