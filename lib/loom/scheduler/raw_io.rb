# frozen_string_literal: true

module Loom
  class Scheduler
    # The +io_read+ and +io_write+ hooks, with Ruby 3.1's semantics (they
    # changed in 3.2, 3.3 and 4.1, so check before porting):
    #
    # - +io_read(io, buffer, length)+ / +io_write(io, buffer, length)+, no
    #   offset; +buffer+ is an IO::Buffer over Ruby's own memory (the IO's
    #   internal buffer or the caller's string);
    # - transfer up to +buffer.size+ bytes and at least +length+ of them,
    #   waiting as needed; +IO#read+, +#write+, +#sysread+, +#syswrite+ and
    #   even +#read_nonblock+ all pass length 0 ("any progress"), so with
    #   length 0 an operation that would block returns +-EAGAIN+ at once and
    #   Ruby decides: a blocking read calls {Scheduler#io_wait} and retries,
    #   +read_nonblock+ raises IO::EAGAINWaitReadable as it must;
    # - return the byte count (0 at end of file) or a negative errno, never
    #   raise for an OS error.
    #
    # Each system call is IO::Buffer#read / #write (one read(2) or write(2)
    # straight into Ruby's memory, no copy, no O_NONBLOCK toggling) run in a
    # {BlockingFiber}, so that it calls no hook. A descriptor in blocking
    # mode (an inherited STDIN, say) blocks the thread there, as it does in
    # Ruby's own path without the hooks.
    module RawIO
      EAGAIN = -Errno::EAGAIN::Errno
      EBADF = -Errno::EBADF::Errno
      EINTR = -Errno::EINTR::Errno

      # @param io [IO]
      # @param buffer [IO::Buffer] where the bytes go, from offset 0
      # @param length [Integer] the minimum to read (0: any progress)
      # @return [Integer] bytes read (0: end of file) or -errno
      def io_read(io, buffer, length)
        return transfer(io, buffer, length, :read, IO::READABLE) unless length.zero?

        once(io, buffer, :read)
      end

      # @param io [IO]
      # @param buffer [IO::Buffer] the bytes to write, from offset 0
      # @param length [Integer] the minimum to write (0: any progress)
      # @return [Integer] bytes written or -errno
      def io_write(io, buffer, length)
        return transfer(io, buffer, length, :write, IO::WRITABLE) unless length.zero?

        once(io, buffer, :write)
      end

      # @param error [Integer, Exception] a -errno, or an error raised
      # @return [Integer] the negative errno Ruby expects for +error+
      # @raise [Exception] +error+ when it is no OS or stream error
      def self.errno(error)
        case error
        when Integer then error
        when SystemCallError then -error.errno
        when IOError then EBADF
        else raise error
        end
      end

      private

      # Length 0, which every Ruby read and write passes: one system call
      # answers, whatever it returns (bytes, 0 at end of file, -EAGAIN for
      # Ruby to wait and retry, -errno). The general loop's bookkeeping is
      # skipped: bench scheduler "pipe round trip" makes four such calls per
      # round trip.
      # @return [Integer] bytes moved or -errno
      def once(io, buffer, operation)
        result = @blocking.transfer(operation, buffer, io, buffer.size)
        return result if result.instance_of?(Integer) && result != EINTR

        result == EINTR ? once(io, buffer, operation) : RawIO.errno(result)
      end

      # Reads (+operation+ :read, +event+ IO::READABLE) or writes (:write,
      # IO::WRITABLE) until +length+ bytes, or the whole buffer, are done: one
      # loop for both hooks, so short transfers, waits and errors are handled
      # the same way.
      # @return [Integer] bytes moved or -errno
      def transfer(io, buffer, length, operation, event)
        size = buffer.size
        done = 0
        while done < size
          result = @blocking.transfer(operation, done.zero? ? buffer : buffer.slice(done, size - done), io, size - done)
          if result.instance_of?(Integer) && result.positive?
            done += result
            break if done >= length
          elsif (final = unfinished(io, result, done, length, event))
            return final
          end
        end
        done
      end

      # A system call that moved no bytes: would block (wait, or -EAGAIN when
      # any progress was enough), end of file, or an error.
      # @return [Integer, nil] what the hook returns, nil to try again
      def unfinished(io, result, done, length, event)
        case result
        when EAGAIN
          return EAGAIN if done.zero? && length.zero?

          io_wait(io, event, nil)
          nil
        when EINTR then nil
        when 0 then done
        else done.positive? ? done : RawIO.errno(result)
        end
      end
    end
  end
end
