# frozen_string_literal: true

require_relative "../loop/event_loop"
require_relative "scheduler"

module Heddle
  class Scheduler
    # What a forked child does with the heddle scheduler it inherited from the
    # forking thread (run in the child by the Process._fork hook, after the
    # loop was emptied and the forking fiber made a root, see
    # {EventLoop.on_fork}).
    #
    # - Forked from a blocking fiber (the thread's root, outside Heddle.run's
    #   procs): the scheduler stays installed, forgetting the parent's parked
    #   fibers; the child carries on as the parent did.
    # - Forked from a non-blocking fiber (inside Heddle.run or a concurrent
    #   proc): that fiber is now the child's only one and must run the loop
    #   itself, which a non-blocking fiber cannot do under a scheduler (the
    #   loop's own IO.select would call the scheduler's hooks again). The
    #   scheduler is removed: the child runs plain blocking Ruby, as a thread
    #   without a scheduler does, and a Heddle.run in it installs a fresh one.
    module ForkChild
      # @return [void]
      def self.call
        scheduler = Fiber.scheduler
        return unless scheduler.is_a?(Scheduler)

        if Fiber.current.blocking?
          scheduler.__send__(:__after_fork__)
        else
          Fiber.set_scheduler(nil) # closes it; from a non-blocking fiber close runs nothing
        end
      end

      EventLoop.on_fork { call }
    end
  end
end
