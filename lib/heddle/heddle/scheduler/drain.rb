# frozen_string_literal: true

require_relative "../procs"

module Heddle
  class Scheduler
    # Runs a thread's loop, from its root fiber, until nothing is left on it:
    # nothing queued and no concurrent-proc fiber started and unfinished.
    # Used by {Scheduler#close} and, after the fibers it can name, by
    # {Heddle.run}.
    #
    # The loop offers no "tell me when you are idle" hook (its run_until
    # checks its condition only when the condition's own entry ran), so
    # while fibers still wait for timers or IO the root fiber looks again
    # every {POLL} seconds: at most 1,000 cheap wake-ups a second, and only
    # for work nobody can await (call_and_forget, procs started before).
    module Drain
      POLL = 0.001

      # @param loop [EventLoop] the current thread's loop
      # @param deadline [Float, nil] the loop's clock ({EventLoop#now}) at
      #   which to give up; nil: never
      # @return [Boolean] true when drained, false when +deadline+ passed
      # @raise [EventLoop::DeadlockError] when fibers still wait but nothing
      #   (no timer, no IO, no other thread) could ever wake them
      def self.call(loop, deadline = nil)
        until loop.live.zero? && loop.idle?
          return false if deadline && loop.now >= deadline

          if loop.idle?
            deadlock!(loop) if stuck?(loop)
            Heddle.await_resume!(within: POLL, timeout_result: nil)
          else
            Heddle.wait(0)
          end
        end
        true
      end

      # Our own POLL timer is gone by now, so any timer is someone else's.
      def self.stuck?(loop)
        loop.timer_count.zero? && loop.io.empty? && Thread.list.size == 1
      end

      def self.deadlock!(loop)
        raise EventLoop::DeadlockError,
              "#{loop.live} fiber(s) still wait, but no timer, IO or other thread could ever wake them; " \
              "resume or conclude them before the scheduler closes"
      end
      private_class_method :stuck?, :deadlock!
    end
  end
end
