# frozen_string_literal: true

require_relative "../loop/event_loop"
require_relative "../masked_lock"
require_relative "../masks"

module Heddle
  class Scheduler
    # The thread that fires {Watch}es: the half of {Heddle.with_timeout} that
    # bounds a block whose blocking calls no scheduler sees (a plain thread
    # outside Heddle.run, a fiber without a scheduler, a blocking fiber).
    # One thread for every watch of the process, started on the first watch
    # and ended when none is left: a thread that stayed would count as a
    # possible waker and hold back the loop's deadlock check
    # (EventLoop#deadlocked?), as Ruby's own Timeout thread does.
    module Watchdog
      class << self
        # Watches +watch+ until it is due or {.remove}d.
        # @param watch [Watch]
        # @return [void]
        def add(watch)
          @mutex.synchronize do
            index = @watches.bsearch_index { |other| other.due > watch.due } || @watches.size
            @watches.insert(index, watch)
            start unless @thread&.alive? # none yet, ended with no watch left, or lost to a fork
            @wakeup.signal if index.zero?
          end
        end

        # Stops watching +watch+ (a no-op once it fired).
        # @param watch [Watch]
        # @return [void]
        def remove(watch)
          @mutex.synchronize do
            index = @watches.index { |other| other.equal?(watch) }
            @watches.delete_at(index) if index
          end
        end

        # @return [Integer] watches not yet due
        def size
          @mutex.synchronize { @watches.size }
        end

        # A forked child has none of the parent's threads: their watches and
        # the watchdog thread (and whatever lock it held) stay behind.
        # @return [void]
        def reset
          @mutex = MaskedLock.new
          @wakeup = Thread::ConditionVariable.new
          @watches = []
          @thread = nil
        end

        private

        # A new thread inherits its maker's Thread.handle_interrupt masks,
        # and a watch starts inside Deadline#run's: the watchdog unmasks
        # itself, so that it can be killed (at exit, by a fork's cleanup) as
        # any thread. (Unmasking around Thread.new would let the maker's own
        # held-back interrupts in, halfway through the add.)
        def start
          @thread = Thread.new { Thread.handle_interrupt(Masks::INTERRUPTIBLE) { run } }
          @thread.name = "heddle with_timeout watchdog"
        end

        # Fires what is due, sleeps until the next due time; ends when no
        # watch is left (under the lock, so #add starts a new thread).
        def run
          @mutex.synchronize do
            until @watches.empty?
              now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
              @watches.shift.fire while !@watches.empty? && @watches[0].due <= now
              sleep_until_due(now) unless @watches.empty?
            end
            @thread = nil
          end
        end

        # The watchdog's one blocking call, interruptible again: the lock
        # masks the rest of #run.
        def sleep_until_due(now)
          Thread.handle_interrupt(Masks::INTERRUPTIBLE) { @wakeup.wait(@mutex, @watches[0].due - now) }
        end
      end

      reset
      EventLoop.on_fork { reset }
    end
  end
end
