# frozen_string_literal: true

require_relative "../io_watch"

module Heddle
  class EventLoop
    # IOWatch's back ends (see IOWatch for the behaviour they share).
    module Selectors
      # IOWatch over IO.select: every sweep asks about all watched IOs at
      # once, so a poll costs O(watched IOs). Needs no compiled gem, and on
      # Ruby 3.1 IO.select calls no Fiber::Scheduler hook, so it works from
      # any fiber. The fallback when nio4r does not load
      # (docs/core.md, "Choosing the selector").
      class SelectWatch < IOWatch
        # Waiters of one IO in one direction, and how long it has had none.
        Entry = Struct.new(:waiters, :idle)

        # Longest blocking select while IOs are waited on, in seconds. The
        # kernel's select does not return when another thread closes one of
        # its descriptors, so a waiter of an IO closed under it hung until
        # something else woke the loop; the next select finds the
        # closed IO (IOError) and wakes its waiters.
        CLOSED_CHECK = 0.05

        def initialize
          super
          @readers = {}
          @writers = {}
          @readable = {}
          @writable = {}
          @waiting = 0
          @unslept = 0 # sweeps since the last sleep
        end

        # @return [Boolean] true while some IO is registered (waited on, or
        #   idle but kept for the next waits)
        def watching?
          !(@readers.empty? && @writers.empty?)
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
        # the ready ones, leaves tokens for the others.
        # @return [void]
        def sweep
          evict_idle if (@unslept += 1) >= SWEEPS_PER_SLEEP # a loop that never sleeps ages them too
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

        # Blocks up to +timeout+ seconds until an IO somebody waits on, or
        # +wake_io+, is ready; wakes those IOs' waiters. The loop's contract
        # (see IOWatch): +nil+ means "sleep until something is ready"; +0+
        # means "do not sleep", only look (IO.select reads them the same
        # way). The sleep is cut to CLOSED_CHECK while IOs are waited on.
        # Drops long-idle registrations first.
        # @param timeout [Numeric, nil] seconds; nil: sleep until something is
        #   ready; 0: do not sleep
        # @param wake_io [IO] the loop's wake-up pipe
        # @return [Boolean] true when +wake_io+ was readable
        def wait(timeout, wake_io)
          evict_idle
          readers = waited(@readers) << wake_io
          writers = waited(@writers)
          timeout = CLOSED_CHECK if (readers.size > 1 || !writers.empty?) && !(timeout && timeout < CLOSED_CHECK)
          ready = IO.select(readers, writers, nil, timeout) or return false
          wake(ready[0], @readers, nil)
          wake(ready[1], @writers, nil)
          ready[0].include?(wake_io)
        rescue IOError, Errno::EBADF
          wake_closed
          false
        end

        # @return [Array<#__io_ready__>] every evaluation waiting on an IO
        def waiters
          [@readers, @writers].flat_map { |table| table.values.flat_map(&:waiters) }
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
          @waiting += 1 # right after: no interrupt can land between two plain steps
          entry.idle = 0
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
              entry.waiters.each { |waiter| waiter.__send__(:__io_ready__) }
            end
          end
        end

        def evict_idle
          @unslept = 0
          [@readers, @writers].each do |table|
            table.delete_if { |_io, entry| entry.waiters.empty? && (entry.idle += 1) > IDLE_SLEEPS }
          end
        end

        # A watched IO was closed under its waiters: wake them so that their
        # next read or write reports the closed stream instead of hanging.
        def wake_closed
          [@readers, @writers].each do |table|
            table.delete_if do |io, entry|
              next false unless gone?(io)

              @waiting -= entry.waiters.size
              entry.waiters.each { |waiter| waiter.__send__(:__io_ready__) }
              true
            end
          end
        end
      end
    end
  end
end
