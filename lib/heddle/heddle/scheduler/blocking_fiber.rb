# frozen_string_literal: true

require "fcntl"

require_relative "../loop/yjit_warm_up"
require_relative "native_io"

module Heddle
  class Scheduler
    # A reusable blocking fiber that runs system calls for the hooks. Inside
    # a non-blocking fiber, IO::Buffer#read (and +Process::Status.wait+)
    # would call the scheduler's hooks again: a blocking fiber calls none.
    # Ruby 3.1 has no +Fiber.blocking { }+, and resuming a kept fiber costs
    # far less than making one, so one fiber is kept per scheduler and
    # resumed for each call (see the scheduler benchmark).
    #
    # It never waits, so it is never resumed while it runs.
    class BlockingFiber
      # Whether IO::Buffer#read and #write take a buffer offset, as from Ruby
      # 3.2 on: +(io, length, offset)+, where +length+ is the least to move and
      # 0 asks for exactly one system call. Ruby 3.1's take +(io, length)+,
      # +length+ being the most to move. A feature test, not a version check.
      # (On 3.3 a read asked for more than one call's worth drops what it
      # read when the next call would block, so length is always 0 there.)
      OFFSETS = IO::Buffer.instance_method(:read).arity != 2

      # Whether IO::Buffer#read and #write run their system call in Ruby's
      # blocking region, the GVL released: so from the Ruby that gave them an
      # offset on (3.2's io_buffer.c moved the call there in the same
      # change), which is why OFFSETS answers it; 3.1's call read(2) holding
      # the GVL. Where they hold it, a read of a descriptor switched to
      # blocking mode after it was remembered non-blocking would stop every
      # thread of the process, so the mode is asked on every call there
      # (see #without_blocking).
      RELEASES_GVL = OFFSETS

      # The C hot path ({NativeIOLoader}), or nil: with it, a read or write of
      # a pipe or socket is one C call in the calling fiber, without this
      # fiber, and never waits whatever the descriptor's mode
      # (docs/scheduler.md, "What each choice bought").
      NATIVE = NATIVE_IO

      # {#serve} is the fiber's body, entered once per scheduler: warmed up
      # so that YJIT compiles it (Heddle::YJITWarmUp).
      WARM_UP = YJITWarmUp.new { allocate.__send__(:serve, true) }

      def initialize
        WARM_UP.warm if YJITWarmUp.main_ractor?
        @fiber = Fiber.new(blocking: true) { serve(false) }
        # IO => its descriptor, for the IOs found non-blocking (see #without_blocking)
        @nonblocking = ObjectSpace::WeakMap.new
        # IO => its descriptor when NATIVE takes it (a pipe or socket), false
        # when it does not (see #native?)
        @streams = ObjectSpace::WeakMap.new
      end

      # One read(2) into +buffer+ (+operation+ :read) or write(2) from it
      # (:write), or one pread(2) at file position +from+ (:pread); one
      # method for all, as they differ only in that.
      # @param operation [:read, :write, :pread]
      # @param buffer [IO::Buffer]
      # @param io [IO]
      # @param offset [Integer] where in +buffer+ the bytes go or come from;
      #   up to the rest of the buffer moves
      # @param from [Integer, nil] the file position (:pread)
      # @return [Integer, Exception] bytes moved (0 on a read: end of file),
      #   -errno, or the error raised (a closed stream)
      def transfer(operation, buffer, io, offset, from = nil)
        if NATIVE && !from && native?(io)
          result = operation == :read ? NATIVE.read(io, buffer, offset) : NATIVE.write(io, buffer, offset)
          return result if result

          @streams[io] = false # the kernel or the descriptor refused a call that cannot wait
        end

        @operation = operation
        @target = buffer
        @io = io
        @offset = offset
        @from = from
        @fiber.resume
      end

      # Runs +callable+ outside the scheduler's reach. It must not wait.
      # @param callable [#call]
      # @return [Object, Exception] its result or the error it raised
      def call(callable)
        @operation = :call
        @target = callable
        @fiber.resume
      end

      private

      # Whether NATIVE reads and writes +io+: a pipe or socket, which its
      # calls read and write without waiting whatever the descriptor's mode.
      # Asked once per IO (one fstat), as a pipe round trip cannot afford a
      # system call more (see the scheduler benchmark).
      # @return [Boolean]
      def native?(io)
        known = @streams[io]
        return known == io.fileno if known
        return false if known == false

        stream = NATIVE.stream?(io)
        @streams[io] = stream && io.fileno
        stream
      rescue IOError
        false # closed: the blocking fiber reports it as for any call
      end

      # The call's arguments travel in instance variables: resume and yield
      # with several values would allocate an Array per call.
      def serve(warming)
        return if warming # see WARM_UP

        while true # rubocop:disable Style/InfiniteLoop -- `loop` costs a block call per system call
          result = perform
          @target = @io = nil
          Fiber.yield(result)
        end
      end

      def perform
        case @operation
        when :read, :write then without_blocking(@io) { move }
        when :pread then @target.pread(@io, @from, 0, @offset)
        else @target.call
        end
      rescue StandardError => e
        e
      end

      # One read(2) or write(2), the descriptor being non-blocking.
      def move
        if @operation == :read
          OFFSETS ? @target.read(@io, 0, @offset) : read_at(@target, @offset)
        else
          OFFSETS ? @target.write(@io, 0, @offset) : write_at(@target, @offset)
        end
      end

      # A descriptor in blocking mode (+io.nonblock = false+, an inherited
      # STDIN, an IO.for_fd) would block the whole thread in read(2), loop
      # included, and on Ruby 3.1 out of reach of signals: it is made
      # non-blocking for this one system call, then restored, as io-event
      # does (async), so that it answers -EAGAIN and the fiber waits in the
      # loop instead. Where IO::Buffer#read releases the GVL (RELEASES_GVL),
      # an IO found non-blocking is remembered with its descriptor and not
      # asked again: the fcntl(F_GETFL) per call cost a sixth of a pipe round
      # trip (docs/scheduler.md, "What each choice bought"). An IO switched
      # to blocking mode after that then blocks this thread, and only it,
      # until its read returns (docs/scheduler.md, "Differences from async").
      def without_blocking(io)
        descriptor = io.fileno
        return yield if RELEASES_GVL && @nonblocking[io] == descriptor

        flags = io.fcntl(Fcntl::F_GETFL)
        if flags.anybits?(Fcntl::O_NONBLOCK)
          @nonblocking[io] = descriptor if RELEASES_GVL
          return yield
        end

        io.fcntl(Fcntl::F_SETFL, flags | Fcntl::O_NONBLOCK)
        begin
          yield
        ensure
          io.fcntl(Fcntl::F_SETFL, flags) unless io.closed?
        end
      end

      # Ruby 3.1's IO::Buffer#read has no offset, and a slice must not stand
      # in for one: on 3.1 a slice of a buffer over a String (IO::Buffer.for)
      # unlocks the String again when it is collected, which raises inside
      # the GC and aborts the VM ("[BUG] object allocation during garbage
      # collection phase"). Past offset 0 the bytes go through a scratch
      # buffer; Ruby's own reads and writes always start at 0.
      def read_at(buffer, offset)
        return buffer.read(@io, buffer.size) if offset.zero?

        scratch = IO::Buffer.new(buffer.size - offset)
        count = scratch.read(@io, scratch.size)
        buffer.copy(scratch, offset, count, 0) if count.positive?
        count
      end

      # See {#read_at}.
      def write_at(buffer, offset)
        return buffer.write(@io, buffer.size) if offset.zero?

        scratch = IO::Buffer.new(buffer.size - offset)
        scratch.copy(buffer, 0, scratch.size, offset)
        scratch.write(@io, scratch.size)
      end
    end
  end
end
