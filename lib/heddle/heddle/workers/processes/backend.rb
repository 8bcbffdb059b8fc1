# frozen_string_literal: true

require_relative "../backend"
require_relative "reaper"
require_relative "../../masked_lock"

module Heddle
  module Workers
    module Processes
      # `size` worker processes, each fed by a {Processes::Lane}. Items and results
      # cross as Marshal data over pipes, in chunks, so a trivial item costs
      # microseconds, not a fork or a round trip.
      #
      # Eager (the default, what `Heddle::Pool.new` gives): every worker is forked
      # when the pool starts. Lazy (`lazy: true`, what `Heddle::Check` uses): the
      # first worker forks with the first chunk, and each further one only when
      # chunks have waited {SPARE_PATIENCE} with no worker free to take them, so
      # work that one process clears quickly never pays a second fork.
      class Backend < Workers::Backend
        # Seconds a stopping worker gets to exit before it is killed.
        EXIT_GRACE = 2.0
        # Below this many live objects the parent skips the collection before
        # forking: a child collects a heap this small for less than the parent's
        # GC.start per pool start plus the copy-on-write faults of touching every page.
        PREFORK_GC_SLOTS = 250_000
        # Lazy pools: seconds a backlog must last before one more worker forks,
        # about what a fork costs.
        SPARE_PATIENCE = 0.01

        @tracked = {}
        @tracked_lock = MaskedLock.new
        @spawn_lock = Mutex.new # held while a worker starts: a wait for it stays interruptible

        class << self
          # @api private
          # Forks with the parent's ends of every other worker's pipes tracked,
          # one fork at a time: a fork between another lane's IO.pipe and its
          # own fork would hand that lane's child-side ends to the wrong child,
          # and the lane would never see end-of-file when its worker dies.
          # @yield creates the pipes, tracks them and forks
          # @return [Object] the block's value
          def spawning(&) = @spawn_lock.synchronize(&)

          # @api private
          # Remembers the parent's ends of a worker's pipes, so that workers
          # forked later close them (else a worker holds another's pipe open
          # and that one never sees end-of-file).
          def track(*ios)
            @tracked_lock.synchronize { ios.each { |io| @tracked[io] = true } }
          end

          # @api private
          def untrack(*ios)
            @tracked_lock.synchronize { ios.each { |io| @tracked.delete(io) } }
          end

          # @api private
          # In a freshly forked worker: closes every other worker's pipes.
          def close_inherited
            @tracked.each_key { |io| io.close unless io.closed? }
            @tracked.clear
          end

          # @api private
          # Waits for a worker to exit, killing it after {EXIT_GRACE} seconds.
          # @return [Process::Status, nil]
          def reap(pid)
            deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + EXIT_GRACE
            loop do
              _, status = Process.waitpid2(pid, Process::WNOHANG)
              return status if status
              break if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

              sleep 0.002
            end
            Process.kill(:KILL, pid)
            Process.waitpid2(pid)[1]
          rescue Errno::ECHILD, Errno::ESRCH
            nil
          end

          # @api private
          # Reaps a killed worker on the process's reaper thread, so that
          # `shutdown(kill: true)` (every check's end) does not wait while the
          # kernel tears the child down. Never a zombie for long: the reaper
          # waits for it at once, and {drain_reaper} runs at exit.
          # @param pid [Integer]
          # @return [void]
          def reap_later(pid)
            reaper.push(pid)
          end

          # @api private
          # Waits until every worker handed to {reap_later} is reaped.
          # @param limit [Numeric] seconds
          # @return [Boolean] true when none is left
          def drain_reaper(limit = EXIT_GRACE + 1) = reaper.drain(limit)

          private

          # This process's reaper (a forked copy starts its own).
          def reaper
            @tracked_lock.synchronize do
              @reaper = nil unless @reaper&.owner == Process.pid
              @reaper ||= Reaper.new
            end
          end
        end

        # @param size [Integer]
        # @param handler [#call]
        # @param item_timeout [Numeric, nil]
        # @param lazy [Boolean] fork each worker when work first waits for it, not at start
        def initialize(size:, handler:, item_timeout: nil, lazy: false)
          @lazy = lazy
          super(size: size, handler: handler, item_timeout: item_timeout)
        end

        # @return [Array<Integer>] the current worker process ids (lazy pools: the ones forked so far)
        def worker_pids = @lanes.filter_map(&:pid)

        # @api private
        # @return [Boolean] whether workers fork on demand
        def lazy? = @lazy

        # @api private
        # Called by a dormant lane (lazy pools): blocks until chunks have waited
        # {SPARE_PATIENCE} with no started worker free, or the pool stops.
        # @return [Boolean] true when the lane should start; false when the pool stops
        def await_turn
          loop do
            return false unless @wake.pop

            patience
            return true if claim_turn
          end
        end

        # @api private
        # Called by each lane as it is made, before it forks: a start
        # interrupted meanwhile (Thread#raise, #kill) still finds the lane
        # and its child to kill.
        # @param lane [Processes::Lane]
        # @return [void]
        def adopt(lane)
          @lanes << lane
        end

        private

        def start
          @queue = Thread::Queue.new
          @wake = Thread::Queue.new
          @dormant = @lazy ? @size - 1 : 0
          @dormant_lock = MaskedLock.new
          @arming = false
          @stopping = ConditionVariable.new
          prefork_gc
          @lanes = []
          # Each lane adopts itself before it forks (see #adopt).
          @size.times { |i| Processes::Lane.new(self, @queue, @handler, @item_timeout, dormant: @lazy && i.positive?) }
          started = true
        ensure
          shutdown(kill: true) unless started # interrupted (Thread#raise, #kill): nobody will own the lanes
        end

        # Collect before forking (what Process.warmup does on 3.3): children
        # then inherit free slots instead of collecting the parent's garbage
        # over copy-on-write pages (docs/workers.md); skipped for small heaps,
        # see PREFORK_GC_SLOTS.
        def prefork_gc
          GC.start if GC.stat(:heap_live_slots) >= PREFORK_GC_SLOTS
        end

        # Lazy pools: more chunks queued than lanes waiting for them means
        # every started worker is busy; a dormant lane is told to look again
        # after SPARE_PATIENCE.
        def enqueue(chunk)
          super
          arm if @lazy && backlog?
        end

        def backlog?(extra = 0) = @queue.size > @queue.num_waiting + extra

        def arm
          @dormant_lock.synchronize do
            next if @arming || @dormant.zero?

            @arming = true
            @wake << true
          end
        rescue ClosedQueueError
          nil
        end

        # Waits SPARE_PATIENCE, or less when the pool stops meanwhile (stop
        # would otherwise wait for it in join).
        def patience
          @dormant_lock.synchronize do
            unless @queue.closed?
              Thread.handle_interrupt(Masks::INTERRUPTIBLE) do
                @stopping.wait(@dormant_lock, SPARE_PATIENCE)
              end
            end
          end
        end

        # A woken dormant lane starts if the backlog is still there; the next
        # dormant lane is armed if more waits than this one will take.
        def claim_turn
          @dormant_lock.synchronize do
            @arming = false
            next false if @queue.closed? || !backlog?

            @dormant -= 1
            if @dormant.positive? && backlog?(1)
              @arming = true
              @wake << true
            end
            true
          end
        rescue ClosedQueueError
          false
        end

        # A finalizer's stop: dormant lanes must wake to see the closed queue.
        def close_queue
          super
          @wake&.close
        end

        # Marshal's per-message overhead is small; larger chunks only cost balance.
        def max_chunk = 1024

        # kill: true (a check's end, Heddle.map's, exit) returns once the
        # workers are signalled and handed to the reaper: their lane threads
        # close the pipes and end by themselves (a join there made every check
        # wait for thread wake-ups).
        def stop(kill:)
          @queue.close
          @wake.close
          @dormant_lock.synchronize { @stopping.broadcast }
          return @lanes.each(&:join) unless kill

          cancel_queued
          @lanes.each(&:kill)
        end
      end
    end
  end
end
