# frozen_string_literal: true

require_relative "../procs"
require_relative "cancel"
require_relative "drain"

module Heddle
  class Scheduler
    # One {Heddle.run}: installs a scheduler if the thread has none, runs the
    # block as a concurrent proc, waits for the loop to be done, uninstalls.
    class Runner
      # The outcome of the block when it raised: re-raised by {Heddle.run}
      # rather than concluded into an evaluation (which would also log it).
      Failure = Struct.new(:error)

      # @param installed [Scheduler, nil] the scheduler already on the thread
      # @param block [::Proc] the user's block
      def initialize(installed, block)
        @installed = installed
        @block = block
      end

      # @return [Object] the block's value
      # @raise [Exception] the block's error
      def call
        scheduler = @installed || install
        outcome = run(scheduler)
        raise outcome.error if outcome.is_a?(Failure)

        outcome
      ensure
        uninstall(scheduler) if scheduler && !@installed
      end

      private

      # Outside the main thread the thread usually ends with its run, and
      # nothing tells its loop: its descriptors are closed now (a later wait
      # reopens them), unless something of the thread still waits on an IO.
      def uninstall(scheduler)
        Fiber.set_scheduler(nil)
        loop = scheduler.loop
        loop.close if loop.io.waiting.zero? && !Thread.current.equal?(Thread.main)
      end

      # A blocking fiber runs the loop itself. A proc fiber waits while its
      # loop's runner goes on. A non-blocking fiber outside heddle's procs (a
      # fork child's, a plain Fiber.new's) has nobody running the loop, and
      # cannot run it under a scheduler itself (the loop's own IO.select
      # would call the hooks again): a blocking fiber of its own does.
      # exit, Interrupt, ...: the block's fibers are cancelled, then it re-raises.
      def run(scheduler)
        return run_in_loop(scheduler) if Fiber.current.blocking?
        return run_in_fiber unless Evaluation.current.instance_of?(Evaluation)

        Fiber.new(blocking: true) { run_in_loop(scheduler) }.resume
      rescue Exception => e # rubocop:disable Lint/RescueException -- exit, Interrupt, ...: cancel the block's fibers, re-raise
        Cancel.call(@evaluation, e, scheduler.loop) if @evaluation
        raise
      end

      def install
        scheduler = Scheduler.new
        Fiber.set_scheduler(scheduler)
        scheduler
      end

      # From a blocking (root) fiber: this fiber runs the loop while it
      # awaits the block, what the block started, then anything left.
      def run_in_loop(scheduler)
        evaluation = scheduler.fiber(&wrapped).evaluation
        outcome = evaluation.await_result
        await_descendants(evaluation)
        Drain.call(scheduler.loop)
        outcome
      end

      # From a non-blocking fiber (a concurrent proc, without the scheduler
      # until now): someone else runs the loop, so wait for the block and
      # for what it started.
      def run_in_fiber
        evaluation = Heddle.concurrent_proc(&wrapped).call_detached
        outcome = evaluation.await_result
        await_descendants(evaluation)
        outcome
      end

      # Children started while a child ran are waited for too. +seen+ keeps
      # this finite even if a concluded child stays listed.
      def await_descendants(evaluation, seen = {}.compare_by_identity)
        until (pending = evaluation.children.reject { |child| seen[child] }).empty?
          pending.each do |child|
            seen[child] = true
            child.await_result { nil }
            await_descendants(child, seen)
          end
        end
      end

      # The block, as a concurrent proc's body: its error is returned (see
      # Failure); its evaluation is kept for {Cancel}.
      def wrapped
        block = @block
        lambda do
          @evaluation = Evaluation.current
          block.call
        rescue StandardError, ScriptError, SystemStackError => e
          Failure.new(e)
        end
      end
    end
  end
end
