# frozen_string_literal: true

module Heddle
  class Scheduler
    # The +io_pread+ hook (IO#pread, IO::Buffer#pread): {RawIO}'s read at a
    # file position. Ruby 3.3 calls it as +(io, buffer, from, length, offset)+;
    # Ruby 3.1 never calls it and its IO::Buffer#pread takes other
    # arguments, so the scheduler includes this module only where IO::Buffer
    # takes offsets ({BlockingFiber::OFFSETS}).
    #
    # There is deliberately no +io_pwrite+. Ruby 3.3's IO#pwrite calls that
    # hook from inside its blocking region, without the GVL (io.c,
    # +internal_pwrite_func+; +pread_internal_call+ gets it right), so any
    # Ruby code there corrupts the VM: here the thread hung at its exit with
    # the GVL held (test/heddle/scheduler/select_and_positions_test.rb, "pwrite
    # from a loop in a thread"). Without the hook Ruby writes itself, which
    # for a regular file, the only kind pwrite takes, never waits anyway.
    module PositionalIO
      # @param io [IO]
      # @param buffer [IO::Buffer] where the bytes go
      # @param from [Integer] the file position
      # @param length [Integer] the minimum to read (0: any progress)
      # @param offset [Integer] where in +buffer+
      # @return [Integer] bytes read (0: end of file) or -errno
      def io_pread(io, buffer, from, length, offset)
        transfer(io, buffer, length, offset, :pread, from)
      end
    end
  end
end
