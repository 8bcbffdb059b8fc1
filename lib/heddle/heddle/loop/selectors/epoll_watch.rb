# frozen_string_literal: true

require_relative "../io_watch"
require_relative "../../scheduler/native_io"

module Heddle
  class EventLoop
    module Selectors
      # IOWatch over Linux's epoll, written in C (ext/heddle_native/epoll_watch.c)
      # for speed: each wait, sweep and ready IO cost heddle a dozen Ruby calls
      # through nio4r and a Ruby registry, and cost none here (the
      # scheduler_io benchmark; docs/scheduler.md, "What each choice bought").
      # It behaves as {NIOWatch} does: registrations are kept across waits, a
      # sweep leaves readiness tokens for ready IOs nobody waits on, an idle
      # ready direction is disarmed (at once by a blocking wait, after
      # DISARM_SWEEPS untaken tokens by sweeps), and closed IOs are found by a
      # scan before every sleep while at most SCAN_ALWAYS IOs are registered,
      # else every SCAN_INTERVAL seconds. The C path's build carries it: it
      # is there when {Scheduler::NATIVE_IO} is, on Linux.
      class EpollWatch < IOWatch
        # See NIOWatch::DISARM_SWEEPS.
        DISARM_SWEEPS = 64
        # Up to this many registrations, every sleep scans them all.
        SCAN_ALWAYS = 256
        # Beyond, seconds between scans (sleeps are cut short to it).
        SCAN_INTERVAL = 0.05

        class << self
          # @return [Boolean] whether heddle's C path is built with epoll
          # @example
          #   Heddle::EventLoop::Selectors::EpollWatch.available? # => true on Linux with the C path
          def available?
            return @available unless @available.nil?

            @available = !Scheduler::NATIVE_IO.nil? && Heddle.const_defined?(:NativeEpoll) &&
                         !Heddle::NativeEpoll.install(self).nil?
          end

          # @return [String] why it is not available
          def load_error
            return "HEDDLE_NATIVE=0" if ENV["HEDDLE_NATIVE"] == "0"

            "heddle's C path is not built for this Ruby, or has no epoll (not Linux): `bundle exec rake compile`"
          end

          # @return [EpollWatch]
          # @raise [SelectorError] when it is not available
          def new
            return super if available?

            raise SelectorError, "the epoll selector is not available (#{load_error}): use HEDDLE_SELECTOR=nio4r"
          end
        end

        # The C methods (installed by {.available?}): +add_reader+,
        # +add_writer+, +remove_reader+, +remove_writer+, +take_readable+,
        # +take_writable+, +sweep+, +wait(timeout, wake_io)+, +waiting+,
        # +empty?+, +waiting?+, +watching?+, +waiters+, +clear+ (IOWatch
        # documents each) and +descriptor+ (the epoll descriptor, or nil).

        # The loop closes: the epoll set goes with it (a new one costs one
        # system call, so none is kept for the next loop).
        # @return [void]
        def retire
          clear
        end
      end
    end
  end
end
