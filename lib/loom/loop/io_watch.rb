# frozen_string_literal: true

module Loom
  class EventLoop
    # The loop's IO readiness registry: for every IO and direction, the
    # evaluations waiting on it (any number of them, unlike Concurrently which
    # allows one per IO), found ready with IO.select. With the handful of
    # descriptors a loop usually watches IO.select beats nio4r and io-event
    # here, needs no compiled gem, and calls no Fiber::Scheduler hook on Ruby
    # 3.1 (docs/core.md, "Choosing the selector").
    #
    # Registrations are kept across waits: an IO stays watched until the loop
    # went to sleep a few times without anyone waiting on it. Every non-blocking poll (a "sweep")
    # asks about all of them at once, wakes the waiters of the ready ones and
    # remembers the ready IOs nobody waits for as one-shot *readiness
    # tokens*, valid until the next sweep: a wait that finds a token takes it
    # and returns at once. One select thus serves a whole batch of waits
    # (bench wait_methods "await_readable"). As with any readiness API a wake
    # can be stale (another evaluation read the IO first): read with
    # read_nonblock and wait again on :wait_readable, as IO#await_read does.
    class IOWatch
      # Times the loop may go to sleep before an idle registration (no waiter,
      # no token taken since) is dropped. Counted in sleeps, not sweeps: a
      # busy loop sweeps once per round, and a batch of waits on many IOs
      # must not evict its own registrations before it gets to them.
      IDLE_SLEEPS = 4

      # Waiters of one IO in one direction, and how long it has had none.
      Entry = Struct.new(:waiters, :idle)

      def initialize
        @readers = {}
        @writers = {}
        @readable = {}
        @writable = {}
        @waiting = 0
      end

      # @return [Boolean] true when no evaluation waits on an IO
      def empty?
        @waiting.zero?
      end

      # @return [Boolean] true while some IO is registered (waited on, or
      #   idle but kept for the next waits)
      def watching?
        !(@readers.empty? && @writers.empty?)
      end

      # @return [Boolean] true when some evaluation waits on an IO
      def waiting?
        @waiting.positive?
      end

      # Takes the readiness token of +io+ for reading, if the last sweep left one.
      # @param io [IO]
      # @return [Boolean]
      def take_readable(io)
        entry = @readable.delete(io) or return false
        entry.idle = 0
        true
      end

      # Takes the readiness token of +io+ for writing, if the last sweep left one.
      # @param io [IO]
      # @return [Boolean]
      def take_writable(io)
        entry = @writable.delete(io) or return false
        entry.idle = 0
        true
      end

      # @param io [IO]
      # @param waiter [#__io_ready__]
      # @return [void]
      def add_reader(io, waiter)
        add(@readers, io, waiter)
      end

      # @param io [IO]
      # @param waiter [#__io_ready__]
      # @return [void]
      def add_writer(io, waiter)
        add(@writers, io, waiter)
      end

      # @param io [IO]
      # @param waiter [#__io_ready__]
      # @return [void]
      def remove_reader(io, waiter)
        remove(@readers, io, waiter)
      end

      # @param io [IO]
      # @param waiter [#__io_ready__]
      # @return [void]
      def remove_writer(io, waiter)
        remove(@writers, io, waiter)
      end

      # Asks about every watched IO without blocking: wakes the waiters of
      # the ready ones, leaves tokens for the others, drops long-idle ones.
      # @return [void]
      def sweep
        @readable.clear
        @writable.clear
        ready = IO.select(@readers.keys, @writers.keys, nil, 0)
        if ready
          wake(ready[0], @readers, @readable)
          wake(ready[1], @writers, @writable)
        end
      rescue IOError, Errno::EBADF
        wake_closed
      end

      # Blocks up to +timeout+ seconds (nil: forever) until an IO somebody
      # waits on, or +wake_io+, is ready; wakes those IOs' waiters.
      # @param timeout [Numeric, nil]
      # @param wake_io [IO] the loop's wake-up pipe
      # @return [Boolean] true when +wake_io+ was readable
      def wait(timeout, wake_io)
        evict_idle
        readers = waited(@readers) << wake_io
        ready = IO.select(readers, waited(@writers), nil, timeout) or return false
        wake(ready[0], @readers, nil)
        wake(ready[1], @writers, nil)
        ready[0].include?(wake_io)
      rescue IOError, Errno::EBADF
        wake_closed
        false
      end

      # Forgets every waiter (used when a forked child starts a clean loop).
      # @return [void]
      def clear
        [@readers, @writers, @readable, @writable].each(&:clear)
        @waiting = 0
      end

      private

      def add(table, io, waiter)
        entry = (table[io] ||= Entry.new([], 0))
        entry.waiters << waiter
        entry.idle = 0
        @waiting += 1
      end

      def remove(table, io, waiter)
        entry = table[io] or return
        @waiting -= 1 if entry.waiters.delete(waiter)
      end

      def waited(table)
        ios = []
        table.each { |io, entry| ios << io unless entry.waiters.empty? }
        ios
      end

      def wake(ios, table, tokens)
        ios.each do |io|
          entry = table[io] or next
          if entry.waiters.empty?
            tokens[io] = entry if tokens
          else
            entry.waiters.each(&:__io_ready__)
          end
        end
      end

      def evict_idle
        [@readers, @writers].each do |table|
          table.delete_if { |_io, entry| entry.waiters.empty? && (entry.idle += 1) > IDLE_SLEEPS }
        end
      end

      # A watched IO was closed under its waiters: wake them so that their
      # next read or write reports the closed stream instead of hanging.
      def wake_closed
        [@readers, @writers].each do |table|
          table.each { |io, entry| entry.waiters.each(&:__io_ready__) if io.closed? }
          table.delete_if do |io, entry|
            @waiting -= entry.waiters.size if io.closed?
            io.closed?
          end
        end
      end
    end
  end
end
