# frozen_string_literal: true

module Heddle
  class Scheduler
    # The hooks that move bytes, +io_read+ and +io_write+, and +io_close+. Their signatures follow what the running
    # Ruby calls (they changed in 3.2, 3.3 and 4.0, so check before porting):
    #
    # - +io_read(io, buffer, length, offset = 0)+ and +io_write+ alike: Ruby
    #   3.1 passes no offset, 3.3 passes one (where in +buffer+ the bytes go
    #   or come from). +buffer+ is an IO::Buffer over Ruby's own memory (the
    #   IO's internal buffer or the caller's string);
    # - +io_pread+ (3.3) is the same at a file position, in {PositionalIO};
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
    module RawIO
      EAGAIN = -Errno::EAGAIN::Errno
      EINTR = -Errno::EINTR::Errno
      # What a transfer waits for when its system call would block.
      WAIT_FOR = { read: IO::READABLE, pread: IO::READABLE, write: IO::WRITABLE }.freeze

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

      # @param error [Integer, Exception] a -errno, or an error raised
      # @return [Integer] the negative errno Ruby expects for +error+
      # @raise [Exception] +error+ when it is no OS error: a closed stream's
      #   IOError among them, raised as Ruby's IO::Buffer#read raises it
      def self.errno(error)
        case error
        when Integer then error
        when SystemCallError then -error.errno
        else raise error
        end
      end

      private

      # Length 0, which every Ruby read and write passes: one system call
      # answers, whatever it returns (bytes, 0 at end of file, -EAGAIN for
      # Ruby to wait and retry, -errno). The general loop's bookkeeping is
      # skipped: a pipe round trip makes four such calls (see the scheduler
      # benchmark).
      # @return [Integer] bytes moved or -errno
      def once(io, buffer, offset, operation)
        result = @blocking.transfer(operation, buffer, io, offset)
        return result if result.instance_of?(Integer) && result != EINTR

        result == EINTR ? once(io, buffer, offset, operation) : RawIO.errno(result)
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
        else done.positive? ? done : RawIO.errno(result)
        end
      end
    end
  end
end
