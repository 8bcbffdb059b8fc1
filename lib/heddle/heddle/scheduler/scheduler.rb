# frozen_string_literal: true

require "English"

module Heddle
  # heddle's Fiber::Scheduler for Ruby 3.1 and 3.3: inside heddle's loop, a
  # non-blocking fiber's plain Ruby (sleep, IO#read/#write, Queue#pop,
  # Mutex#lock, ConditionVariable#wait, Thread#join, Process.wait,
  # Timeout.timeout, Addrinfo.getaddrinfo, and on 3.3 IO#pread and
  # IO.select) suspends only that fiber. Each hook takes the arguments the
  # running Ruby passes (docs/scheduler.md has the table). Every fiber it runs is a
  # heddle evaluation on the thread's {EventLoop}, so concurrent procs and
  # scheduled fibers mix freely, and each hook is a thin adapter over the
  # core's waits ({Heddle.await_resume!}, {Heddle.await_readable}, timers).
  #
  # Use it through {Heddle.run}, or install it yourself:
  #
  # @example
  #   Fiber.set_scheduler(Heddle::Scheduler.new)
  #   Fiber.schedule { sleep 0.01; puts "b" }
  #   Fiber.schedule { puts "a" }
  #   # at the end of the thread (or Fiber.set_scheduler(nil)) the scheduler
  #   # runs the loop until both fibers are done: prints "a", then "b"
  class Scheduler
    include RawIO
    include PositionalIO if BlockingFiber::OFFSETS
    include IOSelect

    # Whether IOs carry a timeout (IO#timeout=, Ruby 3.2): Ruby passes the
    # hooks no timeout for a read or write and leaves the IO's to them.
    IO_TIMEOUT = IO.method_defined?(:timeout)
    # How IO::TimeoutError's message names what a wait waited for.
    WAITED_FOR = { IO::READABLE => "readable", IO::WRITABLE => "writable" }.freeze

    # @return [Thread] the thread the scheduler (and its loop) belong to
    attr_reader :thread
    # @return [EventLoop]
    attr_reader :loop

    # @param io_hooks [Boolean] false leaves io_read/io_write out: Ruby
    #   then reads and writes itself and calls {#io_wait} when an IO is not
    #   ready, which is the same behaviour, faster on Ruby 3.1 (see
    #   docs/scheduler.md, "pipe round trip")
    def initialize(io_hooks: true)
      singleton_class.undef_method(:io_read, :io_write) unless io_hooks
      @thread = Thread.current
      @loop = EventLoop.current
      @blocked = {}.compare_by_identity
      @blocking = BlockingFiber.new
      @closed = false
    end

    # Fiber.schedule: runs the block now in a heddle fiber, until it finishes
    # or waits. Started inside a concurrent proc, it becomes that
    # evaluation's child (concluding the parent cancels it).
    # @return [ScheduledFiber] the fiber as Ruby's interface promises
    #   (+alive?+, +raise+, ...), its heddle evaluation in
    #   {ScheduledFiber#evaluation} (heddle's fibers are pooled, so the
    #   Fiber itself outlives the block)
    # @example
    #   Heddle.run { Fiber.schedule { :done }.evaluation.await_result } # => :done
    def fiber(&block)
      scheduled = nil
      started = Heddle.concurrent_proc do
        # the evaluation is created on demand, adopted by the caller's
        scheduled = ScheduledFiber.new(Evaluation.current, Fiber.current)
        block.call
      end
      begin
        started.call_nonblock
      rescue StandardError, ScriptError, SystemStackError
        nil # logged and concluded into the evaluation, as for any concurrent proc
      end
      scheduled
    end

    # Parks the current fiber until {#unblock} (Mutex#lock, Queue#pop,
    # Thread#join, ...) or until +timeout+ seconds passed.
    # @param _blocker [Object] what blocks (the mutex, queue, thread)
    # @param timeout [Numeric, nil]
    # @return [Boolean] true when unblocked, false on timeout
    def block(_blocker, timeout = nil)
      fiber = Fiber.current
      @blocked[fiber] = Evaluation.current
      Heddle.await_resume!(within: timeout, timeout_result: false)
    ensure
      @blocked.delete(fiber)
    end

    # Wakes a fiber parked by {#block} or {#kernel_sleep}. Safe from any
    # thread: from another one the wake-up is handed to the loop's thread,
    # where the fiber is surely parked by then.
    # @param _blocker [Object]
    # @param fiber [Fiber]
    # @return [void]
    def unblock(_blocker, fiber)
      if Thread.current.equal?(@thread)
        wake(fiber)
      else
        @loop.deliver(self, :wake, fiber)
      end
      nil
    end

    # +sleep+: +sleep 0+ lets everything scheduled run first; +sleep+ with
    # no (or a nil) duration parks until {#unblock} (ConditionVariable#wait).
    # @param duration [Numeric, nil]
    # @return [void]
    def kernel_sleep(duration = nil)
      if duration&.zero?
        Heddle.wait(0)
      else
        block(nil, duration)
      end
    end

    # Waits until +io+ is ready for +events+ (IO::READABLE, IO::PRIORITY,
    # IO::WRITABLE, or-ed). Ruby calls it after a read or write found the IO
    # not ready, so it registers at once, without the poll that
    # Heddle.await_readable tries first (see the scheduler benchmark).
    #
    # Ruby passes no +timeout+ for the waits of IO#read, #write, #gets,
    # #puts, #wait_readable, ... and leaves the IO's own (IO#timeout=, Ruby
    # 3.2) to the scheduler: it waits at most +io.timeout+ then and raises
    # IO::TimeoutError, as IO#timeout= documents (and async does). Returning
    # false instead made Ruby 3.3 raise whatever errno the loop's Ruby code
    # left behind (Errno::ENOTTY) out of IO#read.
    # @param io [IO]
    # @param events [Integer]
    # @param timeout [Numeric, nil] nil: at most +io.timeout+, or no limit
    # @return [Integer, false] the ready events, false when +timeout+ passed
    # @raise [IO::TimeoutError] when +io.timeout+ passed (no +timeout+ given)
    # @raise [IOError] when +io+ was closed (by another thread, say) while it waited
    def io_wait(io, events, timeout = nil)
      return wait_for(io, events, timeout) if timeout || !IO_TIMEOUT || !(limit = io.timeout)

      wait_for(io, events, limit) or
        raise IO::TimeoutError, "Timed out waiting for IO to become #{WAITED_FOR.fetch(events, 'ready')}!"
    end

    # Process.wait / waitpid / Process::Status.wait: waits in a thread of its
    # own (waitpid can only block) while the fiber is parked.
    # @param pid [Integer]
    # @param flags [Integer]
    # @return [Process::Status, nil]
    def process_wait(pid, flags)
      if flags.allbits?(Process::WNOHANG)
        result = @blocking.call(-> { Process::Status.wait(pid, flags) })
        raise result if result.is_a?(Exception)

        return result
      end
      OffThread.call { Process::Status.wait(pid, flags) }
    end

    # Name resolution for Addrinfo.getaddrinfo, TCPSocket.new, ...: the
    # system resolver runs in a thread of its own, so /etc/hosts, nsswitch
    # and DNS answer exactly as without the scheduler.
    # @param hostname [String]
    # @return [Array<String>] the addresses
    # @raise [SocketError] when the name does not resolve
    def address_resolve(hostname)
      host = hostname.split("%", 2).first # a zone suffix ("fe80::1%eth0") is not part of the name
      OffThread.call { Addrinfo.getaddrinfo(host, nil, nil, :STREAM).map(&:ip_address).uniq }
    end

    # Timeout.timeout: raises +exception_class+ in this fiber where it waits,
    # if the block still runs after +duration+ seconds.
    # @param duration [Numeric]
    # @param exception_class [Class]
    # @param message [String]
    # @yieldparam duration [Numeric]
    # @return [Object] the block's value
    def timeout_after(duration, exception_class, message, &block)
      # Timeout.timeout without a class passes Timeout::Error: Ruby's own
      # Timeout then raises an internal exception in the block and
      # Timeout::Error only at its boundary, so code in the block that
      # rescues Timeout::Error (Net::HTTP retries on it) cannot swallow it.
      # Deferred, the deadline does the same.
      deferred = exception_class.equal?(::Timeout::Error)
      deadline = Deadline.new(Fiber.current, exception_class, message, deferred: deferred)
      deadline.arm(@loop, duration).run { block.call(duration) }
    end

    # Called by Fiber.set_scheduler and at the end of the thread: runs the
    # loop until every fiber is done. Skipped when an exception is on its
    # way (as async does), when the thread is being killed (Thread#kill must
    # not wait for fibers that may wait for ever), or when called from a
    # non-blocking fiber, which cannot run the loop.
    # @return [void]
    def close
      return if @closed

      @closed = true
      return if $ERROR_INFO || !Fiber.current.blocking? || !Thread.current.equal?(@thread)
      return if Thread.current.status == "aborting"

      Drain.call(@loop)
    end

    # In a forked child that keeps this scheduler (see {ForkChild}): the
    # parent's parked fibers will never be unblocked here.
    # @return [void]
    private def __after_fork__
      @blocked.clear
    end

    # @return [Boolean] whether {#close} was called
    def closed?
      @closed
    end

    private

    # Runs on the loop's thread.
    def wake(fiber)
      evaluation = @blocked[fiber] or return
      evaluation.resume!(true) if evaluation.waiting?
    end

    # {#io_wait} with its timeout settled.
    def wait_for(io, events, timeout)
      return io_wait_readable(io, timeout) if events == IO::READABLE

      evaluation = Evaluation.current
      watch(io, events, evaluation, true)
      return false unless evaluation.__send__(:__await__, timeout, false)

      open!(io)
      events == IO::WRITABLE || !events.allbits?(IO::WRITABLE) ? events : ready_events(io, events)
    ensure
      watch(io, events, evaluation, false) if evaluation
    end

    # io_wait for IO::READABLE alone, what every blocked read asks: no
    # event arithmetic (hot path, see the scheduler benchmark).
    def io_wait_readable(io, timeout)
      evaluation = Evaluation.current
      watch = @loop.io
      watch.add_reader(io, evaluation)
      evaluation.__send__(:__await__, timeout, false) && open!(io) && IO::READABLE
    ensure
      watch&.remove_reader(io, evaluation)
    end

    # The loop wakes the waiters of an IO closed under them as if it were
    # ready; Ruby's wait without a scheduler raises then, and so does this.
    # @return [true]
    def open!(io)
      raise IOError, "closed stream" if io.closed?

      true
    end

    # Registers (or removes) +evaluation+ as a waiter for +events+ on +io+.
    def watch(io, events, evaluation, add)
      watch = @loop.io
      if events.allbits?(IO::WRITABLE)
        add ? watch.add_writer(io, evaluation) : watch.remove_writer(io, evaluation)
      end
      return if events == IO::WRITABLE

      add ? watch.add_reader(io, evaluation) : watch.remove_reader(io, evaluation)
    end

    # Waited for both directions: which is ready?
    def ready_events(io, events)
      readable, writable, = IO.select([io], [io], nil, 0)
      ready = 0
      ready |= events & (IO::READABLE | IO::PRIORITY) unless readable.nil? || readable.empty?
      ready |= IO::WRITABLE unless writable.nil? || writable.empty?
      ready.zero? ? events : ready
    end
  end
end
