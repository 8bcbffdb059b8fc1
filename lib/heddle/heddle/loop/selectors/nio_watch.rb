# frozen_string_literal: true

require_relative "../io_watch"
require_relative "selector_reserve"

module Heddle
  class EventLoop
    module Selectors
      # IOWatch over nio4r's selector (libev: epoll on Linux, kqueue on the
      # BSDs): registrations live in the kernel, so a poll costs O(ready
      # IOs) however many IOs are watched (see the messages and scheduler
      # benchmarks; docs/core.md, "Choosing the selector").
      #
      # One NIO::Monitor per IO carries the IO's {Registration}. A direction
      # is *armed* (in the monitor's interests) from its first waiter on, and
      # stays armed while idle so that sweeps can leave readiness tokens. The
      # kernel's readiness is level-triggered, so an armed direction that is
      # ready while nobody waits would be reported again and again: a
      # blocking wait disarms it at once (it must not spin), a sweep when
      # DISARM_SWEEPS tokens in a row went untaken. The next waiter arms it
      # again.
      #
      # The kernel forgets a closed descriptor without telling anyone, so
      # closed IOs are found by a scan of the registrations (IO#closed?),
      # which also drops the long-idle ones: before every sleep while at
      # most SCAN_ALWAYS IOs are registered, else at most every
      # SCAN_INTERVAL seconds (sleeps are cut short to it), and every
      # SCAN_SWEEPS sweeps of a loop that never sleeps.
      class NIOWatch < IOWatch
        # One IO's waiters per direction, the armed directions (READ|WRITE
        # bits), per direction the sweep that left a readiness token and the
        # first sweep of a run of untaken ones, and the sleep count of its
        # last use.
        Registration = Struct.new(:io, :monitor, :readers, :writers, :armed, :read_token, :write_token, :used,
                                  :read_since, :write_since)

        READ = 1
        WRITE = 2
        # nio4r's interests for each combination of armed bits.
        INTERESTS = [nil, :r, :w, :rw].freeze

        # Consecutive sweeps an idle, ready direction may leave untaken
        # tokens before it is disarmed: that many reports of it cost about
        # what a disarm, a re-arm (two epoll_ctl) and the extra loop round of
        # the next waiter cost. The limit is at least twice the
        # registrations: IOs awaited in turn see one sweep per IO while they
        # warm up, and disarming them then kept every later await paying an
        # arm, a sweep and a disarm.
        DISARM_SWEEPS = 64

        # Up to this many registrations, every sleep scans them all (a few µs).
        SCAN_ALWAYS = 256
        # Beyond, seconds between scans: a waiter of an IO closed under it is
        # woken at most this late once the loop has nothing else to do.
        SCAN_INTERVAL = 0.05
        # A loop that never sleeps scans every this many sweeps.
        SCAN_SWEEPS = SWEEPS_PER_SLEEP

        class << self
          # Loads nio4r once, on first use, and tells whether its C extension
          # is there.
          # @return [Boolean] whether nio4r's C extension loads (its pure-Ruby
          #   engine is IO.select underneath, slower than {SelectWatch})
          # @example
          #   Heddle::EventLoop::Selectors::NIOWatch.available? # => true
          def available?
            return @available unless @available.nil?

            require "nio"
            @load_error = "nio4r's engine is #{NIO::ENGINE}, not libev" unless NIO::ENGINE == "libev"
            @available = @load_error.nil?
          rescue LoadError => e
            @load_error = e.message
            @available = false
          end

          # @return [String, nil] why nio4r is not available
          attr_reader :load_error
        end

        # @raise [SelectorError] when nio4r's C extension does not load
        def initialize
          super
          unless NIOWatch.available?
            raise SelectorError, "nio4r's C extension does not load (#{NIOWatch.load_error}): add gem \"nio4r\", " \
                                 "\"~> 2.7\" to the Gemfile, or use HEDDLE_SELECTOR=select"
          end

          @regs = {}.compare_by_identity
          @dead = []
          @waiting = 0
          @sweeps = 0
          @sleeps = 0
          @countdown = SCAN_SWEEPS
          @next_scan = 0.0
          @idle_before = 0
          @woke = false
          @selector = @wake_io = @on_open = nil
        end

        # @return [Boolean] true while some IO is registered (waited on, or
        #   idle but kept for the next waits)
        def watching? = !@regs.empty?

        # Takes the readiness token of +io+ for reading, if the last sweep left one.
        # @param io [IO]
        # @return [Boolean]
        def take_readable(io)
          reg = @regs[io] or return false
          return false unless reg.read_token == @sweeps

          reg.read_token = nil
          reg.used = @sleeps
          true
        end

        # Takes the readiness token of +io+ for writing, if the last sweep left one.
        # @param io [IO]
        # @return [Boolean]
        def take_writable(io)
          reg = @regs[io] or return false
          return false unless reg.write_token == @sweeps

          reg.write_token = nil
          reg.used = @sleeps
          true
        end

        # @param io [IO]
        # @param waiter [#__io_ready__]
        # @return [void]
        def add_reader(io, waiter)
          reg = @regs[io] || (@regs[io] = Registration.new(io, nil, [], [], 0, nil, nil, @sleeps))
          arm(reg, READ) if reg.armed.nobits?(READ)
          reg.readers << waiter
          @waiting += 1 # right after: no interrupt can land between two plain steps
          reg.used = @sleeps
        end

        # @param io [IO]
        # @param waiter [#__io_ready__]
        # @return [void]
        def add_writer(io, waiter)
          reg = @regs[io] || (@regs[io] = Registration.new(io, nil, [], [], 0, nil, nil, @sleeps))
          arm(reg, WRITE) if reg.armed.nobits?(WRITE)
          reg.writers << waiter
          @waiting += 1 # right after: no interrupt can land between two plain steps
          reg.used = @sleeps
        end

        # @param io [IO]
        # @param waiter [#__io_ready__]
        # @return [void]
        def remove_reader(io, waiter)
          reg = @regs[io] or return
          @waiting -= 1 if reg.readers.delete(waiter)
          reg.used = @sleeps
        end

        # @param io [IO]
        # @param waiter [#__io_ready__]
        # @return [void]
        def remove_writer(io, waiter)
          reg = @regs[io] or return
          @waiting -= 1 if reg.writers.delete(waiter)
          reg.used = @sleeps
        end

        # Asks the kernel which armed IOs are ready, without blocking: wakes
        # their waiters, leaves tokens for the others.
        # @return [void]
        def sweep
          @sweeps += 1
          wake_dead unless @dead.empty?
          scan(age: true) if (@countdown -= 1).zero?
          selector = @selector or return
          ready = select_on(selector, 0) or return

          ready.each { |monitor| swept(monitor) }
        end

        # Blocks up to +timeout+ seconds until an IO somebody waits on, or
        # +wake_io+, is ready; wakes those IOs' waiters. The loop's contract
        # (see IOWatch): +nil+ means "sleep until something is ready", never
        # "do not sleep"; +0+ means "do not sleep", only look. nio4r's
        # NIO::Selector#select reads them the same way (nil: block, 0: poll).
        # The sleep is cut to SCAN_INTERVAL while IOs are waited on (see the
        # class comment).
        # @param timeout [Numeric, nil] seconds; nil: sleep until something is
        #   ready; 0: do not sleep
        # @param wake_io [IO] the loop's wake-up pipe
        # @return [Boolean] true when +wake_io+ was readable
        def wait(timeout, wake_io)
          @sleeps += 1
          # With nothing registered the wake-up pipe alone is watched: no
          # selector (and no epoll descriptor) for loops that only sleep.
          # (IO.select calls no scheduler hook on Ruby 3.1; wait_readable would.)
          return !IO.select([wake_io], nil, nil, timeout).nil? if @regs.empty? # rubocop:disable Lint/IncompatibleIoSelectWithFiberScheduler

          return false if scan_due? && scan # a waiter of a closed IO woke: there is work, do not sleep

          ready = select_on(selector_with(wake_io), sleep_limit(timeout)) or return false
          woke = false
          ready.each do |monitor|
            reg = monitor.value
            reg ? waited(reg, monitor) : woke = true
          end
          woke
        end

        # @return [Array<#__io_ready__>] every evaluation waiting on an IO
        def waiters = @regs.values.flat_map { |reg| reg.readers + reg.writers }

        # Forgets every waiter and registration, and the selector with them
        # (a forked child must not touch the kernel registrations it shares
        # with its parent: it starts with a fresh selector).
        # @return [void]
        def clear
          @regs.clear
          @dead.clear
          @waiting = 0
          uninterrupted do # the record too: a held-back raise lands as the block ends
            @selector&.close
            @selector = @wake_io = nil
          end
        end

        # The loop closes: forgets every waiter and hands the selector, its
        # registrations closed, to the {SelectorReserve} for the next loop.
        # @return [void]
        def retire
          SelectorReserve.current.put(@selector, @regs.each_value.map(&:monitor), @wake_io) if @selector
          @selector = nil
          clear
        end

        private

        def selector = (@selector ||= SelectorReserve.current.take(@on_open))

        def selector_with(wake_io)
          return @selector if wake_io.equal?(@wake_io)

          uninterrupted do # the record too: a held-back raise lands as the block ends
            selector.deregister(@wake_io) if @wake_io
            selector.register(wake_io, :r) # its monitor's value stays nil
            @wake_io = wake_io
          end
          @selector
        end

        # Adds +bit+ to the armed directions of +reg+ (registering its IO on
        # first use). A closed IO cannot be registered: its waiters are woken
        # at the next poll, as IO.select's IOError would have done.
        def arm(reg, bit)
          armed = reg.armed | bit
          uninterrupted do
            if (monitor = reg.monitor)
              monitor.interests = INTERESTS[armed]
            else
              (reg.monitor = selector.register(reg.io, INTERESTS[armed])).value = reg
            end
            reg.armed = armed
          end
        rescue IOError, Errno::EBADF
          @dead << reg
        end

        # The bit goes first: an interrupt landing as nio4r's call returns
        # then leaves a monitor still armed (the next waiter re-arms it),
        # never a bit that says armed over a monitor that is not, which made
        # the next waiter of the IO sleep for good.
        def disarm(reg, bit)
          armed = reg.armed & ~bit
          reg.armed = armed
          uninterrupted { reg.monitor.interests = INTERESTS[armed] }
        end

        # A monitor a sweep found ready: wake its waiters, or leave a token.
        def swept(monitor)
          reg = monitor.value or return # the wake-up pipe
          return drop(reg) if gone?(reg.io)

          swept_ready(reg, READ, reg.readers) if monitor.readable?
          swept_ready(reg, WRITE, reg.writers) if monitor.writable?
        end

        def swept_ready(reg, bit, waiters)
          waiters.empty? ? unwaited(reg, bit) : waiters.each { |waiter| waiter.__send__(:__io_ready__) }
        end

        # Ready in direction +bit+ with nobody waiting: leave a token, or
        # disarm when the tokens of the last DISARM_SWEEPS sweeps all went
        # untaken.
        def unwaited(reg, bit)
          read = bit == READ
          token = read ? reg.read_token : reg.write_token
          if token != @sweeps - 1 # a new run of untaken tokens starts
            read ? reg.read_since = @sweeps : reg.write_since = @sweeps
          elsif @sweeps - (read ? reg.read_since : reg.write_since) >= disarm_sweeps
            return disarm(reg, bit)
          end
          read ? reg.read_token = @sweeps : reg.write_token = @sweeps
        end

        def disarm_sweeps
          [@regs.size * 2, DISARM_SWEEPS].max
        end

        # A monitor a blocking wait found ready: wake, or disarm at once.
        def waited(reg, monitor)
          return drop(reg) if gone?(reg.io)

          waited_ready(reg, READ, reg.readers) if monitor.readable?
          waited_ready(reg, WRITE, reg.writers) if monitor.writable?
        end

        def waited_ready(reg, bit, waiters)
          waiters.empty? ? disarm(reg, bit) : waiters.each { |waiter| waiter.__send__(:__io_ready__) }
        end

        # Whether the registrations are scanned before this sleep (see the
        # class comment): always while few, else once per SCAN_INTERVAL.
        def scan_due?
          return true if @regs.size <= SCAN_ALWAYS

          now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          return false if now < @next_scan

          @next_scan = now + SCAN_INTERVAL
          true
        end

        # How long a blocking wait may sleep: +timeout+ (nil: until an IO is
        # ready), cut to SCAN_INTERVAL while anyone waits on an IO, because
        # the kernel says nothing when another thread closes it: only the
        # next scan finds it.
        # @param timeout [Numeric, nil]
        # @return [Numeric, nil]
        def sleep_limit(timeout)
          return timeout if @waiting.zero? || (timeout && timeout < SCAN_INTERVAL)

          SCAN_INTERVAL
        end

        # Wakes the waiters of closed IOs and drops them, and the idle
        # registrations of open IOs.
        # @param age [Boolean] true when SCAN_SWEEPS sweeps went by with no
        #   scan before a sleep: the loop does not sleep, so they age the
        #   registrations as a sleep would (IOWatch::SWEEPS_PER_SLEEP)
        # @return [Boolean] whether a waiter was woken
        def scan(age: false)
          @sleeps += 1 if age
          @countdown = SCAN_SWEEPS
          @idle_before = @sleeps - IDLE_SLEEPS
          @woke = false
          @regs.delete_if { |io, reg| stale?(io, reg) }
          @woke
        end

        # @return [Boolean] whether +reg+ goes: its IO is closed (its waiters
        #   are woken) or it is idle
        def stale?(io, reg)
          waited = !(reg.readers.empty? && reg.writers.empty?)
          if gone?(io)
            @woke ||= waited
            release(reg)
          elsif !waited && reg.used < @idle_before
            close_monitor(reg)
            true
          else
            false
          end
        end

        def wake_dead
          @dead.each { |reg| drop(reg) }
          @dead.clear
        end

        # Drops +reg+ (its IO was closed) and wakes its waiters: their next
        # read or write reports the closed stream instead of hanging.
        def drop(reg)
          release(reg) if @regs[reg.io].equal?(reg) && @regs.delete(reg.io)
        end

        # @return [true]
        def release(reg)
          @waiting -= reg.readers.size + reg.writers.size
          reg.readers.each { |waiter| waiter.__send__(:__io_ready__) }
          reg.writers.each { |waiter| waiter.__send__(:__io_ready__) }
          close_monitor(reg)
          true
        end

        # The selects are not held back: the blocking one must stay
        # interruptible, and a mask made the sweep measurably dearer
        # (docs/journal/sync.md, "nio4r's windows closed"). So nio4r's lock
        # window (see #uninterrupted) stays open there: when an interrupt
        # leaves a select, a held-back look tells whether the lock was left
        # held, and a selector left so is given up for a fresh one.
        def select_on(selector, timeout)
          selector.select(timeout)
        rescue Exception # rubocop:disable Lint/RescueException -- any interrupt may have landed as the lock was taken
          renew_selector if poisoned?(selector)
          raise
        end

        # Whether nio4r's lock of +selector+ is held by nobody (this thread
        # owns the Mutex, nio4r does not know it): its next call fails.
        # The rescues are inside the mask: they see only what select(0)
        # raised, never an interrupt held back until the block ends.
        def poisoned?(selector)
          uninterrupted do
            selector.select(0)
            false
          rescue ThreadError
            true
          rescue StandardError
            false # closed, or another fault: the exception that left the select says more
          end
        end

        # Drops a poisoned selector (closing it would take its lock; the GC
        # closes its descriptors) and arms every registration on a new one.
        def renew_selector
          @selector = @wake_io = nil
          @regs.each_value do |reg|
            armed = reg.armed
            reg.monitor = nil
            reg.armed = 0
            arm(reg, armed) unless armed.zero?
          end
        end

        def close_monitor(reg)
          monitor = reg.monitor or return
          uninterrupted do
            monitor.close
            reg.monitor = nil
            reg.armed = 0
          end
        end

        # Runs a call into nio4r with interrupts held back. nio4r's C code
        # calls back into Ruby (its selector's Mutex#lock, a new Monitor's
        # initialize), and Ruby checks interrupts as each returns: a raise
        # there left its Mutex held by nobody (the next select failed with
        # "recursive locking"), or a monitor watched by libev but recorded
        # nowhere, which the GC then freed under libev (the next event read
        # freed memory). Not around the selects (see #select_on).
        def uninterrupted(&)
          Thread.handle_interrupt(Masks::UNINTERRUPTED, &)
        end
      end
    end
  end
end
