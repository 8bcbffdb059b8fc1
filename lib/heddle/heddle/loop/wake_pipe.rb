# frozen_string_literal: true

require_relative "../masks"

module Heddle
  class EventLoop
    # The pipe through which another thread wakes a sleeping loop
    # ({EventLoop#deliver}). Opened lazily, just before the loop first
    # sleeps: a loop that never sleeps (a thread that only runs procs that
    # do not wait, or waits 0) holds no descriptor, and one check of an
    # instance variable per sleep is all it costs (a sleep makes a system
    # call anyway). Closed by {#close}, at the loop's thread's end when the
    # thread says so (a pool's thread, a non-main Heddle.run), else when the
    # next loop opens its pipe and finds the thread gone (see {OpenLoops}).
    # Included in {EventLoop}.
    module WakePipe
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
end
