# frozen_string_literal: true

module Loom
  class Scheduler
    # A reusable blocking fiber that runs system calls for the hooks. Inside
    # a non-blocking fiber, IO::Buffer#read (and +Process::Status.wait+)
    # would call the scheduler's hooks again: a blocking fiber calls none.
    # Ruby 3.1 has no +Fiber.blocking { }+, and a fresh blocking fiber per
    # call costs ~2 µs, so one fiber is kept per scheduler and resumed
    # (~0.15 µs) for each call (bench: scheduler "pipe round trip").
    #
    # It never waits, so it is never resumed while it runs.
    class BlockingFiber
      def initialize
        # The call's arguments travel in instance variables: resume and
        # yield with several values would allocate an Array per call.
        @fiber = Fiber.new(blocking: true) do
          while true # rubocop:disable Style/InfiniteLoop -- `loop` costs a block call per system call
            result = perform
            @target = @io = nil
            Fiber.yield(result)
          end
        end
      end

      # One read(2) into +buffer+ (+operation+ :read) or write(2) from it
      # (:write); one method for both, as they differ only in that.
      # @param operation [:read, :write]
      # @param buffer [IO::Buffer]
      # @param io [IO]
      # @param length [Integer] at most this many bytes (<= buffer.size)
      # @return [Integer, Exception] bytes moved (0 on a read: end of file),
      #   -errno, or the error raised (a closed stream)
      def transfer(operation, buffer, io, length)
        @operation = operation
        @target = buffer
        @io = io
        @length = length
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

      def perform
        case @operation
        when :read then @target.read(@io, @length)
        when :write then @target.write(@io, @length)
        else @target.call
        end
      rescue StandardError => e
        e
      end
    end
  end
end
