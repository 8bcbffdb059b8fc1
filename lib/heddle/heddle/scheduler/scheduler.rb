# frozen_string_literal: true

require "English"

require_relative "../procs"
require_relative "blocking_fiber"
require_relative "deadline"
require_relative "drain"
require_relative "off_thread"
require_relative "scheduled_fiber"

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
    # Whether IOs carry a timeout (IO#timeout=, Ruby 3.2): Ruby passes the
    # hooks no timeout for a read or write and leaves the IO's to them.
    IO_TIMEOUT = IO.method_defined?(:timeout)
    # How IO::TimeoutError's message names what a wait waited for.
    WAITED_FOR = { IO::READABLE => "readable", IO::WRITABLE => "writable" }.freeze
    # What io_read, io_write and io_pread return when the system call would
    # block, or was interrupted: the negative errno Ruby expects.
    EAGAIN = -Errno::EAGAIN::Errno
    EINTR = -Errno::EINTR::Errno
    # What a transfer waits for when its system call would block.
    WAIT_FOR = { read: IO::READABLE, pread: IO::READABLE, write: IO::WRITABLE }.freeze

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

    # The hooks that move bytes, +io_read+ and +io_write+, and +io_close+. Their signatures follow what the running
    # Ruby calls (they changed in 3.2, 3.3 and 4.0, so check before porting):
    #
    # - +io_read(io, buffer, length, offset = 0)+ and +io_write+ alike: Ruby
    #   3.1 passes no offset, 3.3 passes one (where in +buffer+ the bytes go
    #   or come from). +buffer+ is an IO::Buffer over Ruby's own memory (the
    #   IO's internal buffer or the caller's string);
    # - +io_pread+ (3.3) is the same at a file position (see {#io_pread});
    # - transfer up to the rest of the buffer and at least +length+ bytes,
    #   waiting as needed; +IO#read+, +#write+, +#sysread+, +#syswrite+ and
    #   even +#read_nonblock+ all pass length 0 ("any progress"), so with
    #   length 0 an operation that would block returns +-EAGAIN+ at once and
    #   Ruby decides: a blocking read calls {Scheduler#io_wait} and retries,
    #   +read_nonblock+ raises IO::EAGAINWaitReadable as it must;
    # - return the byte count (0 at end of file) or a negative errno, never
    #   raise for an OS error; a closed stream raises IOError, as Ruby's own
    #   IO does;
    # - a transfer that must wait (length > 0) waits at most +io.timeout+
    #   per wait (IO#timeout=, Ruby 3.2), as Ruby's own IO#read does, and
    #   raises IO::TimeoutError when it passes ({Scheduler#io_wait}).
    #
    # Each system call is one IO::Buffer#read / #write / #pread / #pwrite
    # (straight into Ruby's memory, no copy) run in a {BlockingFiber}, so
    # that it calls no hook; or, for a pipe or socket, one read or write in C
    # that never waits, whatever the descriptor's mode, when heddle's C path
    # is built ({NativeIOLoader}). On Ruby's path a descriptor in blocking
    # mode (an inherited STDIN, +io.nonblock = false+) is made non-blocking
    # for that one call ({BlockingFiber}), so it answers -EAGAIN and the
    # fiber waits in the loop instead of blocking the thread.

    # @param io [IO]
    # @param buffer [IO::Buffer] where the bytes go
    # @param length [Integer] the minimum to read (0: any progress)
    # @param offset [Integer] where in +buffer+ (Ruby 3.3 passes it)
    # @return [Integer] bytes read (0: end of file) or -errno
    def io_read(io, buffer, length, offset = 0)
      return transfer(io, buffer, length, offset, :read) unless length.zero?

      once(io, buffer, offset, :read)
    end

    # @param io [IO]
    # @param buffer [IO::Buffer] the bytes to write
    # @param length [Integer] the minimum to write (0: any progress)
    # @param offset [Integer] where in +buffer+ (Ruby 3.3 passes it)
    # @return [Integer] bytes written or -errno
    def io_write(io, buffer, length, offset = 0)
      return transfer(io, buffer, length, offset, :write) unless length.zero?

      once(io, buffer, offset, :write)
    end

    # The +io_pread+ hook (IO#pread, IO::Buffer#pread): {#io_read} at a
    # file position. Ruby 3.3 calls it as +(io, buffer, from, length, offset)+;
    # Ruby 3.1 never calls it and its IO::Buffer#pread takes other
    # arguments, so the scheduler defines it only where IO::Buffer takes
    # offsets ({BlockingFiber::OFFSETS}).
    #
    # There is deliberately no +io_pwrite+. Ruby 3.3's IO#pwrite calls that
    # hook from inside its blocking region, without the GVL (io.c,
    # +internal_pwrite_func+; +pread_internal_call+ gets it right), so any
    # Ruby code there corrupts the VM: here the thread hung at its exit with
    # the GVL held (test/heddle/scheduler/select_and_positions_test.rb, "pwrite
    # from a loop in a thread"). Without the hook Ruby writes itself, which
    # for a regular file, the only kind pwrite takes, never waits anyway.
    if BlockingFiber::OFFSETS
      # @param io [IO]
      # @param buffer [IO::Buffer] where the bytes go
      # @param from [Integer] the file position
      # @param length [Integer] the minimum to read (0: any progress)
      # @param offset [Integer] where in +buffer+
      # @return [Integer] bytes read (0: end of file) or -errno
      def io_pread(io, buffer, from, length, offset)
        transfer(io, buffer, length, offset, :pread, from)
      end
    end

    # Closes +io+ for Ruby: its waiters wake, as for any watched IO that
    # closes, and see the closed stream. Ruby 3.3 defines the hook but does
    # not call it yet (4.0 does, with a descriptor).
    # @param io [IO, Integer] the IO, or its file descriptor
    # @return [true] the IO is closed
    def io_close(io)
      target = io.is_a?(Integer) ? IO.for_fd(io, autoclose: true) : io
      result = @blocking.call(-> { target.close unless target.closed? })
      raise result if result.is_a?(Exception) && !result.is_a?(IOError)

      true
    end

    # The +io_select+ hook: +IO.select+ inside the loop (Ruby 3.3 hands it
    # to the scheduler, even with timeout 0). It suspends only the calling
    # fiber: the fiber waits on every IO at once through the loop's
    # {EventLoop::IOWatch}, then asks +IO.select+ with timeout 0 which are
    # ready, so what it returns is exactly what +IO.select+ would (the
    # original objects, data already in an IO's read buffer counted ready).
    #
    # Ruby passes only the arguments its caller gave: +IO.select([r])+
    # calls +io_select([r])+, hence the defaults (those of IO.select).
    # @param readables [Array<IO, #to_io>, nil]
    # @param writables [Array<IO, #to_io>, nil]
    # @param exceptables [Array<IO, #to_io>, nil]
    # @param timeout [Numeric, nil] seconds; nil waits for ever
    # @return [Array(Array, Array, Array), nil] the ready objects, nil when
    #   none became ready within +timeout+
    def io_select(readables, writables = nil, exceptables = nil, timeout = nil)
      ready = select_now(readables, writables, exceptables)
      return ready if ready || timeout&.zero?
      return select_in_loop(readables, writables, timeout) if exceptables.nil? || exceptables.empty?

      # The loop watches readability and writability only: exceptional
      # conditions (TCP urgent data) are waited for by IO.select itself.
      OffThread.call { IO.select(readables, writables, exceptables, timeout) }
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
      @loop.drop_idle_fibers
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

    # Length 0, which every Ruby read and write passes: one system call
    # answers, whatever it returns (bytes, 0 at end of file, -EAGAIN for
    # Ruby to wait and retry, -errno). The general loop's bookkeeping is
    # skipped: a pipe round trip makes four such calls (see the scheduler
    # benchmark).
    # @return [Integer] bytes moved or -errno
    def once(io, buffer, offset, operation)
      result = @blocking.transfer(operation, buffer, io, offset)
      return result if result.instance_of?(Integer) && result != EINTR

      result == EINTR ? once(io, buffer, offset, operation) : errno(result)
    end

    # Moves bytes (+operation+ :read, :pread or :write; +from+ is the
    # file position of a :pread) until +length+ bytes, or the rest of the
    # buffer, are done: one loop for every hook, so short transfers, waits
    # and errors are handled the same way.
    # @return [Integer] bytes moved or -errno
    def transfer(io, buffer, length, offset, operation, from = nil) # rubocop:disable Metrics/ParameterLists -- a hook's arguments, and which system call
      rest = buffer.size - offset
      done = 0
      while done < rest
        result = @blocking.transfer(operation, buffer, io, offset + done, from && (from + done))
        if result.instance_of?(Integer) && result.positive?
          done += result
          break if done >= length
        elsif (final = unfinished(io, result, done, length, operation))
          return final
        end
      end
      done
    end

    # A system call that moved no bytes: would block (wait, or -EAGAIN when
    # any progress was enough), end of file, or an error.
    # @return [Integer, nil] what the hook returns, nil to try again
    def unfinished(io, result, done, length, operation)
      case result
      when EAGAIN
        return EAGAIN if done.zero? && length.zero?

        io_wait(io, WAIT_FOR.fetch(operation), nil) # at most io.timeout: raises IO::TimeoutError
        nil
      when EINTR then nil
      when 0 then done
      else done.positive? ? done : errno(result)
      end
    end

    # @param error [Integer, Exception] a -errno, or an error raised
    # @return [Integer] the negative errno Ruby expects for +error+
    # @raise [Exception] +error+ when it is no OS error: a closed stream's
    #   IOError among them, raised as Ruby's IO::Buffer#read raises it
    def errno(error)
      case error
      when Integer then error
      when SystemCallError then -error.errno
      else raise error
      end
    end

    # Waits in the loop until one of the IOs is ready or +timeout+ passed.
    # A wake can be stale (another fiber read first), so each wake asks
    # again and only a ready answer or the timeout returns.
    def select_in_loop(readables, writables, timeout)
      deadline = timeout && (Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout)
      evaluation = Evaluation.current
      while true # rubocop:disable Style/InfiniteLoop -- Scheduler#loop is the EventLoop's reader, not Kernel#loop
        woke = await_any(evaluation, readables, writables, deadline)
        ready = select_now(readables, writables, nil)
        return ready if ready || !woke
      end
    end

    # @return [Boolean] false when the deadline passed first
    def await_any(evaluation, readables, writables, deadline)
      within = deadline && [deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC), 0].max
      watch_all(evaluation, readables, writables, true)
      evaluation.__send__(:__await__, within, false) ? true : false
    ensure
      watch_all(evaluation, readables, writables, false)
    end

    def watch_all(evaluation, readables, writables, add)
      watch = @loop.io
      readables&.each do |io|
        add ? watch.add_reader(io.to_io, evaluation) : watch.remove_reader(io.to_io, evaluation)
      end
      writables&.each do |io|
        add ? watch.add_writer(io.to_io, evaluation) : watch.remove_writer(io.to_io, evaluation)
      end
    end

    # IO.select with timeout 0, run where it calls no hook.
    # @return [Array, nil]
    def select_now(readables, writables, exceptables)
      result = @blocking.call(-> { IO.select(readables, writables, exceptables, 0) })
      raise result if result.is_a?(Exception)

      result
    end
  end
end
