# frozen_string_literal: true

require_relative "../event_loop"
require_relative "../../masks"

module Heddle
  class EventLoop
    module Selectors
      # Spare nio4r selectors, handed from the loops that close to the loops
      # that open. nio4r keeps some memory of every NIO::Selector it ever
      # made, closed or collected, so a program whose short-lived threads
      # each waited on an IO grew for good (measured in docs/journal/core.md).
      # A loop takes a spare before it makes one.
      #
      # At most {LIMIT} spares, 3 descriptors each (epoll and nio4r's wake-up
      # pipe). One reserve per Ractor (Ractor-local, as {OpenLoops}); a
      # forked child closes its copies of the parent's. No lock, for the
      # reason {OpenLoops} gives: a proc fiber takes a selector too. Each
      # change is one Array call, atomic under the GVL; two loops handing
      # selectors back at once may keep one spare more than {LIMIT}.
      class SelectorReserve
        # Spares kept; a selector handed back beyond them is closed.
        LIMIT = 4
        # Ractor-local key.
        KEY = :__heddle_selector_reserve__

        # @return [SelectorReserve] this Ractor's reserve
        def self.current
          Ractor.current[KEY] ||= new
        end

        def initialize
          @spares = []
        end

        # @param opened [#call, nil] called first (the loop registers as
        #   holding descriptors, so its close hands the selector back)
        # @return [NIO::Selector] a spare, or a new selector
        def take(opened = nil)
          opened&.call
          @spares.pop || NIO::Selector.new
        end

        # Keeps +selector+ for the next {#take}, its registrations closed
        # first, or closes it when {LIMIT} are kept.
        # @param selector [NIO::Selector]
        # @param monitors [Array<NIO::Monitor, nil>] the registrations of a loop's IOs
        # @param wake_io [IO, nil] the loop's wake-up pipe, if registered
        # @return [void]
        def put(selector, monitors = [], wake_io = nil)
          return if selector.closed?

          unregister(selector, monitors, wake_io)
          return @spares.push(selector) && nil if @spares.size < LIMIT

          Thread.handle_interrupt(Masks::UNINTERRUPTED) { selector.close }
        end

        # Opens spares until {LIMIT} are kept. The reserve otherwise fills
        # as the most loops so far close at once, a step of 3 descriptors
        # each time that peak is passed; a program that wants a flat count
        # from the start (a soak's baseline) pays for its fullest state now.
        # @return [Integer] spares kept now
        # @raise [LoadError] when nio4r does not load
        # @example
        #   Heddle::EventLoop::Selectors::SelectorReserve.current.fill # => 4
        def fill
          require "nio"
          @spares.push(NIO::Selector.new) while @spares.size < LIMIT
          @spares.size
        end

        # @return [Integer] spares kept now
        def size
          @spares.size
        end

        # In a forked child: closes the child's copies of the parent's
        # spares and starts a new reserve.
        # @return [void]
        def self.after_fork
          reserve = Ractor.current[KEY] or return
          Ractor.current[KEY] = nil
          reserve.close_spares
        end

        # Closes the spares (see {.after_fork}).
        # @return [void]
        def close_spares
          @spares.each(&:close).clear
        end

        private

        # With interrupts held back, as NIOWatch calls nio4r (see its #uninterrupted).
        def unregister(selector, monitors, wake_io)
          Thread.handle_interrupt(Masks::UNINTERRUPTED) do
            monitors.each { |monitor| monitor&.close }
            selector.deregister(wake_io) if wake_io
          end
        end

        # A forked child closes its copies of the parent's spare selectors.
        EventLoop.on_fork { after_fork }
      end
    end
  end
end
