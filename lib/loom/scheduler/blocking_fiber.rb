# frozen_string_literal: true

module Loom
  class Scheduler
    # A reusable blocking fiber that runs non-blocking system calls for the
    # hooks. Inside a non-blocking fiber, +read_nonblock+ (and
    # +Process::Status.wait+) would call the scheduler's hooks again: a
    # blocking fiber calls none. Ruby 3.1 has no +Fiber.blocking { }+, and a
    # fresh blocking fiber per call costs ~2 µs, so one fiber is kept per
    # scheduler and resumed (~0.15 µs) for each call (bench: scheduler
    # "pipe round trip").
    #
    # It never waits, so it is never resumed while it runs.
    class BlockingFiber
      def initialize
        @fiber = Fiber.new(blocking: true) do |operation, target, argument|
          while true # rubocop:disable Style/InfiniteLoop -- `loop` costs a block call per system call
            result = perform(operation, target, argument)
            operation, target, argument = Fiber.yield(result)
          end
        end
      end

      # @param io [IO] an IO without buffers of its own (see {RawIO})
      # @param maxlen [Integer]
      # @return [String, Symbol, nil, Exception] the read_nonblock result
      #   (+:wait_readable+, nil at end of file) or the error raised
      def read(io, maxlen)
        @fiber.resume(:read, io, maxlen)
      end

      # @param io [IO]
      # @param string [String]
      # @return [Integer, Symbol, Exception] bytes written, +:wait_writable+
      #   or the error raised
      def write(io, string)
        @fiber.resume(:write, io, string)
      end

      # Runs +callable+ outside the scheduler's reach. It must not wait.
      # @param callable [#call]
      # @return [Object, Exception] its result or the error it raised
      def call(callable)
        @fiber.resume(:call, callable, nil)
      end

      private

      def perform(operation, target, argument)
        case operation
        when :read then target.read_nonblock(argument, exception: false)
        when :write then target.write_nonblock(argument, exception: false)
        else target.call
        end
      rescue StandardError => e
        e
      end
    end
  end
end
