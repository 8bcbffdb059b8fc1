# frozen_string_literal: true

require_relative "../error"
require_relative "../masks"

module Heddle
  class EventLoop
    # The loop's IO readiness registry: for every IO and direction, the
    # evaluations waiting on it (any number of them, unlike Concurrently which
    # allows one per IO). Three back ends share this interface and behaviour,
    # chosen once per process ({.backend}), the first that loads:
    #
    # - {Selectors::EpollWatch}: Linux's epoll with the registry in C (part
    #   of heddle's C path): registrations live in the kernel, so a poll
    #   costs O(ready IOs), and a wait or a ready IO calls no Ruby but the
    #   wake-up.
    # - {Selectors::NIOWatch}: nio4r's epoll (kqueue, ...) selector, the
    #   same behaviour with the registry in Ruby. Used when nio4r's C
    #   extension loads.
    # - {Selectors::SelectWatch}: IO.select over the watched IOs, O(watched)
    #   per poll; no compiled gem needed. The fallback.
    #
    # Set HEDDLE_SELECTOR=epoll, nio4r or select to force one
    # (docs/core.md, "Choosing the selector").
    #
    # Registrations are kept across waits: an IO stays watched until the loop
    # went to sleep a few times without anyone waiting on it. Every
    # non-blocking poll (a "sweep") wakes the waiters of the ready IOs and
    # remembers the ready IOs nobody waits for as one-shot *readiness
    # tokens*, valid until the next sweep: a wait that finds a token takes it
    # and returns at once. One poll thus serves a whole batch of waits
    # (see the wait_methods benchmark). Blocking waits only wake for IOs
    # somebody waits on. Closing a watched IO wakes its waiters. As with any
    # readiness API a wake can be stale (another evaluation read the IO
    # first): read with read_nonblock and wait again on :wait_readable, as
    # IO#await_read does.
    #
    # Interface (what EventLoop, Heddle.await_readable and the scheduler call):
    # +empty?+, +watching?+, +waiting?+, +take_readable(io)+,
    # +take_writable(io)+, +add_reader(io, waiter)+, +add_writer+,
    # +remove_reader+, +remove_writer+, +sweep+, +wait(timeout, wake_io)+,
    # +waiters+ and +clear+; waiters respond to +__io_ready__+.
    class IOWatch
      # Times the loop may go to sleep before an idle registration (no waiter,
      # no token taken since) is dropped. Counted in sleeps, not sweeps: a
      # busy loop sweeps once per round, and a batch of waits on many IOs
      # must not evict its own registrations before it gets to them.
      IDLE_SLEEPS = 4
      # Sweeps that count as one sleep for that ageing, in a loop that sweeps
      # without ever sleeping (a Heddle.run whose IO is always ready, as over
      # loopback): without it such a loop kept every registration for good,
      # and the ones of IO objects nobody closes (Ruby's socket calls wait
      # through a temporary IO for the descriptor) piled up, and memory grew
      # for as long as the loop ran.
      SWEEPS_PER_SLEEP = 1024

      # HEDDLE_SELECTOR values and the back ends they name.
      SELECTORS = %w[select nio4r epoll].freeze

      # Raised when HEDDLE_SELECTOR names no back end, or one that cannot load.
      class SelectorError < Error; end

      BACKEND_LOCK = Mutex.new
      private_constant :BACKEND_LOCK

      class << self
        # @return [IOWatch] a registry of the chosen back end's class (this
        #   very class is never instantiated); IO.select's in a Ractor other
        #   than the main one, where nio4r's extension (not Ractor-safe) may
        #   not run and the choice may not be memoized
        def new
          return super unless equal?(IOWatch)

          Ractor.current.equal?(Ractor.main) ? backend.new : Selectors::SelectWatch.new
        end

        # The back end every new loop uses, chosen on first use from
        # HEDDLE_SELECTOR, else epoll in C, nio4r or IO.select, the first that loads.
        # @return [Class] a subclass of IOWatch
        # @raise [SelectorError] when HEDDLE_SELECTOR is set to something else
        #   than "epoll", "nio4r" or "select", or to one that does not load
        # @example
        #   Heddle::EventLoop::IOWatch.backend # => Heddle::EventLoop::Selectors::EpollWatch
        def backend
          # Under a lock: threads whose first loops open at once each required
          # nio4r ("circular require" warnings under -w).
          # With interrupts held back: a thread killed while it loaded nio4r
          # under the lock once left the others waiting for it for good.
          @backend || Thread.handle_interrupt(Masks::UNINTERRUPTED) do
            BACKEND_LOCK.synchronize { @backend ||= choose(ENV.fetch("HEDDLE_SELECTOR", nil)) }
          end
        end

        # Sets the back end of loops created from now on (tests run both).
        # @!attribute [w] backend
        #   @param value [Class, nil] a subclass of IOWatch; nil: choose again
        attr_writer :backend

        # @param name [String, nil] "epoll", "nio4r", "select", or nil/"" for the best available
        # @return [Class] the back end +name+ stands for
        # @raise [SelectorError] see {.backend}
        def choose(name)
          case name
          when nil, "" then best
          when "select" then Selectors::SelectWatch
          when "nio4r" then Selectors::NIOWatch.tap(&:new) # raises when nio4r does not load
          when "epoll" then Selectors::EpollWatch.tap(&:new) # raises when the C path is not built
          else raise SelectorError, "HEDDLE_SELECTOR=#{name.inspect} names no selector: use one of #{SELECTORS.inspect}"
          end
        end

        private

        # The fastest back end that loads: epoll in C, nio4r, IO.select.
        def best
          return Selectors::EpollWatch if Selectors::EpollWatch.available?

          Selectors::NIOWatch.available? ? Selectors::NIOWatch : Selectors::SelectWatch
        end
      end

      # @return [Integer] evaluations waiting on an IO (a reader, no Ruby
      #   frame: EventLoop#nothing_due? asks on every `wait 0`)
      attr_reader :waiting

      # Called when the back end first takes a kernel object that the
      # loop's close must give back (a selector): the loop registers as
      # holding descriptors then, not only when it first sleeps.
      # @!attribute [w] on_open
      #   @param value [#call, nil] the callback
      attr_writer :on_open

      # @return [Boolean] true when no evaluation waits on an IO
      def empty?
        @waiting.zero?
      end

      # @return [Boolean] true when some evaluation waits on an IO
      def waiting?
        @waiting.positive?
      end

      # @!method wait(timeout, wake_io)
      #   Every back end defines it: blocks up to +timeout+ seconds until an
      #   IO somebody waits on, or +wake_io+, is ready, and wakes those IOs'
      #   waiters. The contract with the loop (EventLoop#sleep_until_work):
      #   +nil+ means "sleep until something is ready" (no timer is pending;
      #   only an IO or the wake-up pipe can end the sleep), never "do not
      #   sleep"; +0+ means "do not sleep", only look. A back end may cut a
      #   sleep short (to find IOs closed under their waiters), never
      #   lengthen one.
      #   @param timeout [Numeric, nil] seconds; nil: sleep until something is
      #     ready; 0: do not sleep
      #   @param wake_io [IO] the loop's wake-up pipe
      #   @return [Boolean] true when +wake_io+ was readable

      # The loop closes: forgets every waiter and lets go of what the back
      # end holds (a back end with a kernel object may keep it for the next
      # loop, see Selectors::NIOWatch#retire).
      # @return [void]
      def retire
        clear
      end

      private

      # Whether +io+ is closed. On Ruby 3.1 an IO that Ruby released under
      # us (a backtick's pipe, collected) answers closed? with IOError
      # ("uninitialized stream"): it is gone as well.
      def gone?(io)
        io.closed?
      rescue IOError
        true
      end
    end
  end
end
