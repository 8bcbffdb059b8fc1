# frozen_string_literal: true

require_relative "../procs"
require_relative "drain"

module Heddle
  class Scheduler
    # What {Heddle.run} does when an exception that no evaluation keeps
    # (exit, Interrupt, a signal's, a DeadlockError) unwinds it: cancels
    # the block's evaluation and every unfinished evaluation it started,
    # so their ensure blocks run now, while the process still runs, and
    # no fiber is left on the loop for the next Heddle.run to wait for.
    #
    # An ensure block may wait (a puts, a sleep): from the root fiber the
    # loop then runs until the cancelled fibers are done, for at most
    # {ENSURE_GRACE} seconds, as Ruby waits for killed threads at exit,
    # but bounded: an ensure that waits for ever must not hold the exit.
    module Cancel
      # Seconds the cancelled fibers' ensure blocks get to finish their waits.
      ENSURE_GRACE = 2.0

      # @param evaluation [Proc::Evaluation] the block's evaluation
      # @param error [Exception] what unwinds Heddle.run
      # @param loop [EventLoop] the loop the evaluations run on
      # @return [void]
      def self.call(evaluation, error, loop)
        result = Evaluation::CancelledError.new("cancelled: Heddle.run was left by #{error.class}")
        cancel(evaluation, result, {}.compare_by_identity)
        Drain.call(loop, loop.now + ENSURE_GRACE) if Fiber.current.blocking?
      rescue EventLoop::DeadlockError
        nil # an ensure waits for what can never come: +error+ goes on
      end

      # Concluding an unfinished evaluation cancels its unfinished
      # children (Proc::Evaluation#conclude_to); a finished one (the block
      # itself, when the exception ended its fiber) has its children
      # cancelled one by one. +seen+ keeps it finite.
      def self.cancel(evaluation, result, seen)
        return if seen[evaluation]

        seen[evaluation] = true
        return evaluation.conclude_to(result) unless evaluation.concluded?

        evaluation.children.each { |child| cancel(child, result, seen) }
      end
      private_class_method :cancel
    end
  end
end
