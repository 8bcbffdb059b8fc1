# frozen_string_literal: true

module Heddle
  # The event loop of one thread: a run queue, timers, IO readiness and an
  # inbox for wake-ups from other threads. It knows nothing of evaluations
  # beyond the messages of {Protocol::LOOP}: run-queue entries answer
  # +__run__+ and +__chain_into__+, timer targets +__timeout__+, zero-second
  # waiters +__zero__+, IO waiters +__io_ready__+, and {#run_until} stops
  # when its +until_done+ object's +__resumed__+ is true.
  #
  # The loop does not run in a fiber of its own: a fiber that waits outside a
  # concurrent proc (e.g. the thread's root fiber) runs the loop itself until
  # it is resumed. Concurrent procs yield back to whoever resumed them.
  class EventLoop
    include Fibers
    include Timers
    include WakePipe

    # Raised when a fiber waits, nothing is scheduled, no IO or timer is
    # pending and no other thread exists that could wake it.
    class DeadlockError < Error; end

    # Live (started, unfinished) concurrent-proc fibers a loop allows before it
    # holds further starts back, below the count at which the kernel refuses
    # fiber stacks (vm.max_map_count, two mappings per fiber).
    MAX_LIVE_FIBERS = 20_000

    # Idle fibers kept for reuse; more are let finish so memory stays bounded.
    POOL_SIZE = 1_000

    # Replaces the entries that ran when the run queue is compacted.
    NOTHING = [].freeze
    # Entries that ran the run queue keeps before it drops them: one slice
    # assignment per 64 entries, not one per loop exit (a loop run that
    # starts and awaits one proc; see the spawn benchmark).
    COMPACT_AT = 64
    private_constant :NOTHING, :COMPACT_AT

    # Seconds between deadlock checks while a loop waits only for other threads.
    DEADLOCK_CHECK_INTERVAL = 1.0

    THREAD_KEY = :__heddle_event_loop__
    private_constant :THREAD_KEY

    # Callbacks {.after_fork} runs in a forked child (see {.on_fork}).
    @fork_callbacks = []

    class << self
      # @return [EventLoop] this thread's loop, created on first use
      # @example
      #   Heddle::EventLoop.current.lifetime # => 0.0012
      def current
        Thread.current.thread_variable_get(THREAD_KEY) ||
          Thread.current.thread_variable_set(THREAD_KEY, new)
      end

      # @param thread [Thread]
      # @return [EventLoop, nil] +thread+'s loop, nil if it never made one
      def of(thread)
        thread.thread_variable_get(THREAD_KEY)
      end

      # Gives this thread a clean loop after a fork (the child must never run
      # the parent's pending work), then runs the {.on_fork} callbacks.
      # Called by the Process._fork hook, in the child, in the forking fiber.
      # @return [void]
      def after_fork
        loop = Thread.current.thread_variable_get(THREAD_KEY)
        loop&.orphan_pending
        loop&.reinitialize!
        @fork_callbacks.each(&:call)
      end

      # Registers what a forked child must reset beyond the loop (the layers
      # above it keep their own per-thread state; the loop knows none of it).
      # Callbacks run in registration order, in the child only.
      # @yieldreturn [void]
      # @return [void]
      # @example
      #   Heddle::EventLoop.on_fork { Thread.current[:my_cache] = nil }
      def on_fork(&callback)
        raise ArgumentError, "on_fork needs a block" unless callback

        @fork_callbacks << callback
      end
    end

    # @return [Thread] the thread the loop belongs to
    attr_reader :thread
    # @return [Array<#__run__>] the run queue, appended to directly (cheaper
    #   than #push; hot path, see the call_methods benchmark).
    #   Entries before the head index have run; see #run_until.
    attr_reader :queue
    # @return [Array] spent call_and_forget entries (Proc::QueuedCall) kept for reuse (at most
    #   POOL_SIZE): one allocation less per call_and_forget
    attr_reader :spent_calls

    # What {#run_until} runs until, in a warming call: resumed already, so
    # the call returns at once.
    RESUMED = Object.new
    def RESUMED.__resumed__ = true
    RESUMED.freeze
    # {#run_until} is the loop itself, and a fiber that waits long (a
    # Heddle.run block awaiting its fibers, a root fiber awaiting a promise
    # resolved by another thread) enters it only a few times: below YJIT's
    # call threshold, the loop's rounds stayed interpreted (see the promises
    # benchmark). Warmed up on the first loop made (Heddle::YJITWarmUp).
    WARM_UP = YJITWarmUp.new { |loop| loop.run_until(RESUMED) }

    def initialize
      @thread = Thread.current
      @max_live_fibers = MAX_LIVE_FIBERS
      @queue = []
      @zero = []
      @timers = TimerHeap.new(@timer_list = []) # the loop reads the list, the heap orders it
      @io = IOWatch.new
      @io.on_open = -> { open_wake_pipe unless @wake_r } # registered in OpenLoops: its close retires the selector
      @pool = []
      @spent_calls = []
      @held = []
      reinitialize!
      WARM_UP.warm(self) if YJITWarmUp.main_ractor?
    end

    # Empties the loop: drops pending work, timers, IO waiters, idle fibers
    # and wake-ups, and restarts {#lifetime}. Done automatically in a forked
    # child.
    # @return [EventLoop] self
    def reinitialize!
      @start = now
      @queue.clear
      @head = 0
      @zero.clear
      @timers.clear
      @io.clear
      @pool.clear
      @held.clear
      @fibers = 0
      @round_left = 0
      @unswept = 0
      @seq = 0
      reset_wakeup
      self
    end

    # Tells the entries pending in this loop (run queue, held starts, zero
    # waits, timers, IO waiters) that they will never run here: called in a
    # forked child before the loop is emptied, so that awaiting one of the
    # parent's evaluations raises at once instead of waiting for ever
    # (a grandchild's await hung). Entries answer +__forked__+
    # with the parent's pid if they care.
    # @api private
    # @param parent [Integer] the pid of the process the loop was forked from
    # @return [void]
    def orphan_pending(parent = Process.ppid)
      pending = @queue[@head..] + @held + @zero.each_slice(3).map(&:first) + @timer_list.map(&:target) + @io.waiters
      pending.each { |entry| entry.__send__(:__forked__, parent) if entry.respond_to?(:__forked__, true) }
    end

    # @return [Float] seconds since the loop was created or reinitialized
    def lifetime
      now - @start
    end

    # @return [Float] the monotonic clock, in seconds
    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end

    # Appends +entry+ to the run queue (O(1)).
    # @param entry [#__run__, #__chain_into__]
    # @return [void]
    # @raise [TypeError] when +entry+ lacks either method (a proc fiber would
    #   otherwise fail in {#chain} much later, killing the loop). The check
    #   is off the hot path: heddle's procs append to {#queue} directly.
    def push(entry)
      unless entry.respond_to?(:__run__, true) && entry.respond_to?(:__chain_into__, true)
        raise TypeError, "entry must respond to __run__ and __chain_into__, got #{entry.inspect}"
      end

      @queue << entry
    end

    # @return [Integer] run-queue entries not yet run
    def queued
      @queue.size - @head
    end

    # @return [Boolean] true when nothing is queued to run right now (zero-
    #   second waits count as queued: they run in the next round)
    def idle?
      @queue.size == @head && @zero.empty?
    end

    # Whether a zero-second wait would find nothing to run before it: no
    # queued or held entry, no other zero wait, no timer due, no wake-up
    # from another thread and no fiber waiting for IO (ready IO is only
    # known by asking the selector, which a round does).
    # @return [Boolean]
    def nothing_due?
      @queue.size == @head && @zero.empty? && @held.empty? && !@mail && @io.waiting == 0 && # rubocop:disable Style/NumericPredicate -- opt_eq, no call
        (@timer_list.empty? || @timer_list[0].time > now)
    end

    # @return [IOWatch] the IO readiness registry
    attr_reader :io

    # Delivers +receiver.__send__(message, argument)+ to this loop's thread.
    # Safe from any thread; wakes the loop if it is sleeping.
    # @param receiver [Object]
    # @param message [Symbol]
    # @param argument [Object]
    # @return [void]
    def deliver(receiver, message, argument)
      @inbox << [receiver, message, argument]
      # After the push: a drain that cleared the flag before it still finds
      # the message (see #drain_inbox).
      @mail = true
      wake_up if @sleeping
    end

    # Runs the loop until +until_done.__resumed__+ is true.
    # @param until_done [#__resumed__]
    # @return [void]
    # @raise [DeadlockError] when nothing could ever resume +until_done+
    def run_until(until_done) # rubocop:disable Metrics/AbcSize, Metrics/CyclomaticComplexity, Metrics/PerceivedComplexity -- hot loop, inlined
      queue = @queue
      outer_round = @round_left
      until until_done.__send__(:__resumed__)
        # A round runs what is queued now, then the timers due now, in due
        # order (Concurrently's order: scheduled starts first, then waits);
        # what the round schedules waits for the next round, after IO.
        fire_due unless @timer_list.empty? && @zero.empty?
        @unswept += 1
        @round_left = queue.size - @head
        while @round_left > 0 # rubocop:disable Style/NumericPredicate -- opt_gt, no call (bench wait_methods)
          @round_left -= 1
          entry = queue[@head]
          @head += 1
          # An entry's __run__ returns the root evaluation it resumed, so the
          # flag is only read then (hot path, see the wait_methods benchmark).
          next unless entry.__send__(:__run__).equal?(until_done) && until_done.__send__(:__resumed__)

          # The round's last entry resumed the waiter: still take in what
          # the round's poll would have, or a waiter that loops on `wait 0`
          # would starve held starts, IO waiters and other threads' wake-ups.
          catch_up(returning: true) if @round_left == 0 && !(@held.empty? && !@mail && @io.waiting == 0) # rubocop:disable Style/NumericPredicate
          return
        end
        compact_queue if @head >= COMPACT_AT
        # #poll inlined when nothing is held, queued from outside or watched
        # (bench call_methods_waiting: one call less per round)
        poll unless @held.empty? && @inbox.empty? && !@io.watching? && queue.size > @head
      end
    ensure
      @round_left = outer_round
      compact_queue if @head >= COMPACT_AT
    end

    # Lets a proc fiber that just finished a job start the round's next entry
    # itself, if that entry is a start (call_detached, call_and_forget): two
    # fiber switches saved per start (bench call_methods).
    # @param pooled [Object] the finished, free pooled fiber
    # @return [Boolean] true when +pooled+ took the next entry
    def chain(pooled)
      return false unless @round_left > 0 && (entry = @queue[@head]) && entry.__send__(:__chain_into__, pooled) # rubocop:disable Style/NumericPredicate

      @head += 1
      @round_left -= 1
      true
    end

    private

    # Drops the entries that ran from the front of the run queue. The queue
    # is read through a head index, not Array#shift: shift makes a long array
    # share its buffer with a hidden copy, and the next push after it
    # emptied leaves both to the garbage collector, an object and a buffer
    # of fresh memory per round with GC off. Assigning an empty slice keeps
    # the buffer (Array#clear would shrink it).
    def compact_queue
      @queue[0, @head] = NOTHING
      @head = 0
    end

    # One round of everything that is not the run queue: the inbox, due
    # timers, IO readiness. Sleeps when nothing is runnable.
    def poll
      catch_up
      sleep_until_work if @queue.size == @head
    end

    # Queues what is ready outside the run queue without sleeping: held
    # starts with a fiber free, the inbox, ready IO. When a waiter returns
    # from the loop at the end of a round (+returning+), IO is swept only if
    # fibers wait for it and a round ran since the last sweep: the round
    # that resumed an IO waiter came from a sweep just before, and sweeping
    # again would double the selector calls (see the wait_methods benchmark).
    def catch_up(returning: false)
      release_held unless @held.empty?
      drain_inbox unless @inbox.empty?
      sweep_io if returning ? @unswept > 1 && @io.waiting? : @io.watching?
    end

    def sweep_io
      @unswept = 0
      @io.sweep
    end

    def sleep_until_work
      timeout = sleep_timeout
      return if timeout&.zero? # a timer is due; IO was just swept

      open_wake_pipe unless @wake_r
      @sleeping = true # before looking at the inbox: see #deliver
      return unless @inbox.empty?

      # (the wake-up bytes are read into one reused buffer)
      @wake_r.read_nonblock(4096, @wake_buffer, exception: false) if @io.wait(timeout, @wake_r)
    ensure
      @sleeping = false
    end

    # Seconds until the next timer; with none and no IO, the deadlock check
    # interval (another thread may still wake us; look again now and then,
    # in case they all end).
    def sleep_timeout
      return 0 unless @zero.empty?
      return [@timers.first.time - now, 0].max unless @timers.empty?
      return nil if @io.waiting?

      raise_deadlock if deadlocked?
      DEADLOCK_CHECK_INTERVAL
    end

    # Nothing is pending here and no other thread exists that could wake us.
    def deadlocked?
      @inbox.empty? && Thread.list.size == 1
    end

    def raise_deadlock
      raise DeadlockError, "Infinitely running event loop detected: There are no evaluations scheduled " \
                           "and no IOs to await. Nothing can resume the waiting evaluation; schedule work " \
                           "or resume it before waiting."
    end

    # The @mail flag says "maybe a message" without a call (#nothing_due?
    # reads it on every `wait 0`); it is cleared before the drain, so a
    # message delivered meanwhile is drained now or flagged again.
    def drain_inbox
      @mail = false
      until @inbox.empty?
        receiver, message, argument = @inbox.pop
        receiver.__send__(message, argument)
      end
    end

    def reset_wakeup
      close_wake_pipe # reopened by the next sleep (WakePipe)
      @inbox = Thread::Queue.new
      @mail = false
      @wake_buffer = String.new(capacity: 4096) # reused by every drain
      @sleeping = false
    end
  end
end
