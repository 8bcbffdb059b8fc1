# frozen_string_literal: true

module Loom
  class EventLoop
    # The loop's IO readiness registry: for every IO and direction, the list of
    # evaluations waiting on it (any number of them, unlike Concurrently which
    # allows one per IO). Readiness is found with IO.select: with the handful of
    # descriptors a loop usually watches it beats nio4r and io-event here, needs
    # no compiled gem, and calls no Fiber::Scheduler hook on Ruby 3.1 (see
    # docs/core.md, "Choosing the selector").
    #
    # A woken waiter stays registered until its own await removes it, so a
    # waiter is only ever woken through its +__io_ready__+ method, which
    # ignores evaluations that are no longer waiting.
    class IOWatch
      def initialize
        @readers = {}
        @writers = {}
      end

      # @return [Boolean] true when no IO is watched
      def empty?
        @readers.empty? && @writers.empty?
      end

      # @param io [IO]
      # @param waiter [#__io_ready__]
      # @return [void]
      def add_reader(io, waiter)
        (@readers[io] ||= []) << waiter
      end

      # @param io [IO]
      # @param waiter [#__io_ready__]
      # @return [void]
      def add_writer(io, waiter)
        (@writers[io] ||= []) << waiter
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

      # Waits up to +timeout+ seconds (nil: forever) for a watched IO or
      # +wake_io+ to become ready and wakes the IOs' waiters.
      # @param timeout [Numeric, nil]
      # @param wake_io [IO, nil] an extra IO to watch for reading (the wake-up pipe)
      # @return [Boolean] true when +wake_io+ was readable
      def select(timeout, wake_io)
        readers = @readers.keys
        readers << wake_io if wake_io
        ready = IO.select(readers, @writers.keys, nil, timeout)
        return false unless ready

        wake(ready[0], @readers)
        wake(ready[1], @writers)
        wake_io ? ready[0].include?(wake_io) : false
      rescue IOError, Errno::EBADF
        wake_closed
        false
      end

      # Forgets every waiter (used when a forked child starts a clean loop).
      # @return [void]
      def clear
        @readers.clear
        @writers.clear
      end

      private

      def remove(table, io, waiter)
        list = table[io] or return
        list.delete(waiter)
        table.delete(io) if list.empty?
      end

      def wake(ios, table)
        ios.each do |io|
          list = table[io] or next
          list.each(&:__io_ready__)
        end
      end

      # A watched IO was closed under its waiters: wake them so that their
      # next read or write reports the closed stream, instead of hanging.
      def wake_closed
        [@readers, @writers].each do |table|
          table.each { |io, list| list.each(&:__io_ready__) if io.closed? }
          table.delete_if { |io, _| io.closed? }
        end
      end
    end
  end
end
