# frozen_string_literal: true

require_relative "../../masked_lock"

module Heddle
  module Workers
    module Processes
      # Reaps killed workers on a thread that runs only while there are some
      # (no thread sleeps forever in a program that used a pool once).
      class Reaper
        # @return [Integer] the process this reaper belongs to
        attr_reader :owner

        def initialize
          @owner = Process.pid
          @pids = []
          @lock = MaskedLock.new
          @idle = ConditionVariable.new
          @running = false
        end

        # @param pid [Integer] a worker that was killed or told to stop
        # @return [void]
        def push(pid)
          started = @lock.synchronize do
            @pids << pid
            next true if @running

            @running = start_thread
          end
          run unless started # no thread to be had: reap here
        end

        # @param limit [Numeric] seconds
        # @return [Boolean] true once every pushed worker is reaped
        def drain(limit)
          deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + limit
          @lock.synchronize do
            while @running
              left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
              return false unless left.positive?

              Thread.handle_interrupt(Masks::INTERRUPTIBLE) { @idle.wait(@lock, left) }
            end
          end
          true
        end

        private

        # @return [Boolean] false when Ruby refuses a new thread: once the
        #   main thread has ended (a lane stopping while the process exits)
        #   Thread.new raises "can't alloc thread".
        def start_thread
          Workers.thread { run }.name = "heddle-reaper"
          true
        rescue ThreadError
          false
        end

        def run
          while (pid = next_pid)
            Processes::Backend.reap(pid)
          end
        end

        # The next pid to reap, or nil (and the thread ends) when none is left.
        def next_pid
          @lock.synchronize do
            pid = @pids.shift
            unless pid
              @running = false
              @idle.broadcast
            end
            pid
          end
        end
      end
    end
  end
end
