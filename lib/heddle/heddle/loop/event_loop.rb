# frozen_string_literal: true

require_relative "../error"
require_relative "../masks"
require_relative "io_watch"
require_relative "open_loops"
require_relative "timer"
require_relative "timer_heap"
require_relative "yjit_warm_up"

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
  #
  # Its state is all set by its constructor: the run queue (+@queue+,
  # +@head+) and the proc fibers (+@fibers+, +@pool+, +@max_live_fibers+,
  # +@held+); the timers (+@timers+ over +@timer_list+, +@zero+, +@seq+);
  # the IO watch and the wake-up pipe (+@io+, +@wake_r+, +@wake_w+,
  # +@sleeping+) with the inbox of other threads (+@inbox+, +@mail+).
  class EventLoop
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
    # @return [Array] idle pooled fibers (see Heddle::Proc::PooledFiber). Taken
    #   with delete_at(-1), not pop, as the spent calls are: Array#pop shrinks
    #   the buffer of an array that emptied below a third of its capacity,
    #   and the pushes after regrow it, fresh memory every round with GC off
    #   (see the call_methods_waiting benchmark).
    attr_reader :pool
    # @return [Array] starts held back while {#max_live_fibers} fibers live;
    #   while any are, finished workers stay pooled for them (bench spawn)
    attr_reader :held
    # @return [Integer] the maximum of live fibers before starts are held back
    attr_accessor :max_live_fibers
    # @return [Integer] proc fibers alive (running, waiting or idle in the pool)
    attr_reader :fibers

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
      @wake_r = @wake_w = nil # the wake-up pipe, opened by the first sleep
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

    # Whether +entry+ waits in the run queue, not yet run. A scan: only for
    # rare paths (a root evaluation's wait ended by an exception).
    # @param entry [#__run__]
    # @return [Boolean]
    def queued?(entry)
      (index = @queue.rindex(entry)) ? index >= @head : false
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
    def run_until(until_done) # rubocop:disable Metrics/AbcSize, Metrics/MethodLength, Metrics/CyclomaticComplexity, Metrics/PerceivedComplexity -- hot loop, inlined
      queue = @queue
      outer_round = @round_left
      # Fibers wait on IO that may have become ready while the caller ran:
      # they run before anything this wait resumes, as in Concurrently (IO
      # first, then the run queue). Else a wait whose timer is due at once
      # (a short wait, or a slow first round under YJIT) returned before
      # they had their turn (test_io_ready_before_the_wait_runs_before_its_timer).
      sweep_io if @io.waiting > 0 # rubocop:disable Style/NumericPredicate -- opt_gt, no call
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
          ran = entry.__send__(:__run__)
          entry = nil # run: an interrupt from here on does not put it back
          next unless ran.equal?(until_done) && until_done.__send__(:__resumed__)

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
      # Set only between taking an entry and its run's end: an interrupt
      # left mid-run. (A rescue clause here made every `next` allocate.)
      put_back(entry) if entry
      @round_left = outer_round
      compact_queue if @head >= COMPACT_AT
    end

    # An interrupt (Thread#raise, a timeout) landed after the loop took
    # +entry+ and before its run began: an evaluation still scheduled (or
    # pending its start) goes back in the queue, else nothing would ever
    # run it. Other entries (starts of procs without an evaluation) are
    # not safe to run twice and are not put back.
    # @param entry [#__run__]
    # @return [void]
    private def put_back(entry)
      @queue << entry if entry.is_a?(Evaluation) && entry.__send__(:__untaken__)
    end

    # Lets a proc fiber that just finished a job start the round's next entry
    # itself, if that entry is a start (call_detached, call_and_forget): two
    # fiber switches saved per start (bench call_methods).
    # An interrupt that lands after +pooled+ took the entry (its
    # +running_proc+ is set) and before the head moved past it moves the head
    # on: the entry is off the queue, and the fiber, which the interrupt ends,
    # queues the start again (Proc::PooledFiber#work).
    # @param pooled [Object] the finished, free pooled fiber
    # @return [Boolean] true when +pooled+ took the next entry
    def chain(pooled)
      return false unless @round_left > 0 && (entry = @queue[@head]) && entry.__send__(:__chain_into__, pooled) # rubocop:disable Style/NumericPredicate

      # No interrupt lands from here to the return: the rescue sees the head unmoved.
      @head += 1
      @round_left -= 1
      true
    rescue Exception # rubocop:disable Lint/RescueException -- any interrupt; re-raised
      if pooled.running_proc # taken: off the queue
        @head += 1
        @round_left -= 1
      end
      raise
    end

    # The proc fibers of the loop: the pool of idle ones, how many exist, and
    # the starts held back while {#max_live_fibers} are alive (past a limit
    # the kernel refuses fiber stacks).

    # @return [Integer] proc fibers running or waiting (not idle in the pool)
    def live
      @fibers - @pool.size
    end

    # Whether a new proc fiber may be created for +entry+; if not, the entry
    # is held back and re-queued when a fiber is free again. Only the slow
    # path (empty pool) gets here.
    # @param entry [#__run__]
    # @return [Boolean]
    def fiber_for?(entry)
      return true if @fibers < @max_live_fibers

      @held << entry
      false
    end

    # Lets go of the idle pooled fibers, e.g. to give memory back after a
    # burst. Each is ended, not only forgotten: a suspended fiber keeps its
    # stack, and an old one has it scanned by every minor GC until a major
    # GC frees it (docs/journal/scheduler.md, connection set-up).
    # @return [Integer] how many were dropped
    def drop_idle_fibers
      retire_idle_fibers(0)
    end

    # Ends idle pooled fibers beyond +keep+, newest kept (they were used
    # last). They are counted out first: one an interrupt keeps from being
    # ended is only forgotten, as a fiber of another thread is (a fiber is
    # resumed only on its own thread).
    # @param keep [Integer]
    # @return [Integer] how many went
    def retire_idle_fibers(keep)
      count = @pool.size - keep
      return 0 unless count.positive?

      retired = @pool.slice!(0, count)
      @fibers -= count
      retired.each(&:retire) if Thread.current.equal?(@thread)
      count
    end

    # Counts a fiber created (+1) or ended (-1).
    # @param delta [Integer]
    # @return [void]
    def count_fiber(delta)
      @fibers += delta
    end

    # The timers of the loop: a heap of {Timer}s with real removal on cancel,
    # and a flat list for zero-second waits, both fired at the start of a
    # round in due order.

    # Sets a timer that calls +target.__timeout__(timer)+ after +seconds+.
    # @param seconds [Numeric]
    # @param target [#__timeout__]
    # @param value [Object] carried by the timer
    # @return [Timer]
    def add_timer(seconds, target, value)
      @timers.push(Timer.new(now + seconds, @seq += 1, target, value))
    end

    # Registers a zero-second wait: +target.__zero__(token)+ is called at the
    # start of the next round, in due order with the timers. Cheaper than a
    # {Timer} (hot path of the wait_methods and call_methods_waiting
    # benchmarks): three slots in a flat list, no heap.
    # @param target [#__zero__]
    # @return [Integer] the token (a {#cancel_timer} of it is a no-op)
    def add_zero_wait(target)
      # The time only orders it against timers pending now: any timer set
      # later is due later anyway, so without timers no clock read is needed.
      @zero << target << (@timer_list.empty? ? 0.0 : now) << (@seq += 1)
      @seq
    end

    # Removes +timer+ for real (no dead entry is left behind).
    # @param timer [Timer, Integer] a timer, or a zero-wait token (no-op)
    # @return [void]
    def cancel_timer(timer)
      @timers.delete(timer) unless timer.is_a?(Integer)
    end

    # @return [Integer] pending timers (zero-second waits included)
    def timer_count
      @timers.size + (@zero.size / 3)
    end

    # The pipe through which another thread wakes a sleeping loop
    # ({#deliver}). Opened lazily, just before the loop first sleeps: a loop
    # that never sleeps (a thread that only runs procs that do not wait, or
    # waits 0) holds no descriptor, and one check of an instance variable per
    # sleep is all it costs (a sleep makes a system call anyway). Closed by
    # {#close}, at the loop's thread's end when the thread says so (a fiber
    # pool's thread, the end of a Heddle.run outside the main thread), else
    # when the next loop opens its pipe, or a garbage collection after it,
    # finds the thread gone (see {OpenLoops}).

    # Closes the descriptors the loop holds: its wake-up pipe and its IO
    # watch's selector (pending IO waiters are forgotten). A later sleep
    # opens them again. Safe from another thread once the loop's thread
    # has ended.
    # @return [true]
    # @example
    #   Thread.new { Heddle.wait 0.001; Heddle::EventLoop.current.close }.join
    def close
      @io.retire
      close_wake_pipe
      true
    end

    # @return [Boolean] whether the loop holds its wake-up pipe now
    def open?
      !@wake_r.nil?
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
      close_wake_pipe # reopened by the next sleep (#open_wake_pipe)
      @inbox = Thread::Queue.new
      @mail = false
      @wake_buffer = String.new(capacity: 4096) # reused by every drain
      @sleeping = false
    end

    # Re-queues held-back starts for the idle fibers and the fibers that may
    # still be created.
    def release_held
      free = @pool.size + @max_live_fibers - @fibers
      while free.positive? && !@held.empty?
        @queue << @held.shift
        free -= 1
      end
    end

    # Schedules the zero-second waits and the due timers, merged by due time.
    def fire_due
      zero = @zero
      return fire_zero(zero, 0) if @timer_list.empty?

      time = now
      index = 0
      while (timer = @timers.first) && timer.time <= time
        while index < zero.size && zero[index + 1] <= timer.time
          zero[index].__send__(:__zero__, zero[index + 2])
          index += 3
        end
        @timers.shift
        timer.target.__send__(:__timeout__, timer)
      end
      fire_zero(zero, index)
    end

    def fire_zero(zero, index)
      while index < zero.size
        zero[index].__send__(:__zero__, zero[index + 2])
        index += 3
      end
      zero.clear
    end

    # Opening and closing run with asynchronous interrupts held back. On
    # Ruby 3.1 a Thread#kill landing inside IO.pipe closes the new
    # descriptor and leaves an IO object that closes the same number again
    # when collected, by then another loop's pipe; and one landing inside
    # IO#close of a pipe's write end skips the close(2) and leaks it.
    def open_wake_pipe
      Thread.handle_interrupt(Masks::UNINTERRUPTED) do
        OpenLoops.current.add(self)
        @wake_r, @wake_w = IO.pipe
      end
    end

    def close_wake_pipe
      reader = @wake_r
      writer = @wake_w
      return if reader.nil?

      Thread.handle_interrupt(Masks::UNINTERRUPTED) do
        @wake_r = @wake_w = nil
        OpenLoops.current.remove(self)
        [reader, writer].each { |io| io.close unless io.closed? }
      end
    end

    # One write wakes the sleeping loop: later messages are drained with the
    # first, so they write nothing.
    def wake_up
      @sleeping = false
      @wake_w&.write_nonblock(".", exception: false)
    rescue IOError, SystemCallError
      nil # the loop's thread is gone (its pipe closed under us) or the loop was reinitialized
    end
  end
end
