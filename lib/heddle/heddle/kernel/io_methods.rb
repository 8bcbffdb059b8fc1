# frozen_string_literal: true

require_relative "../procs"
require_relative "kernel_methods/options"

module Heddle
  # Concurrently-style IO methods, included into ::IO by
  # `require "heddle/kernel"`. Unlike {Heddle.await_readable}, a timeout raises
  # {Heddle::Evaluation::TimeoutError} unless +timeout_result:+ is given, as in
  # Concurrently.
  module IOMethods
    # Reads in the background: `io.concurrently_read(n)` is
    # `READ_PROC.call_detached(io, n)`.
    READ_PROC = Heddle::Proc.new { |io, maxlen, outbuf| io.await_read(maxlen, outbuf) }
    # Writes in the background.
    WRITE_PROC = Heddle::Proc.new { |io, string| io.await_written(string) }

    # @param opts [Hash, nil] +within:+, +timeout_result:+ (also as keywords)
    # @return [true, Object] true, or the timeout result
    # @raise [Heddle::Evaluation::TimeoutError] on timeout without timeout_result
    # @example
    #   r, w = IO.pipe
    #   concurrently { w.write "x" }
    #   r.await_readable # => true
    def await_readable(opts = nil, **keywords)
      keywords = Options.merge(opts, keywords)
      Heddle.await_readable(self, timeout_result: Heddle::Evaluation::TIMEOUT, **keywords)
    end

    # @param opts [Hash, nil] +within:+, +timeout_result:+ (also as keywords)
    # @return [true, Object] true, or the timeout result
    # @raise [Heddle::Evaluation::TimeoutError] on timeout without timeout_result
    def await_writable(opts = nil, **keywords)
      keywords = Options.merge(opts, keywords)
      Heddle.await_writable(self, timeout_result: Heddle::Evaluation::TIMEOUT, **keywords)
    end

    # Reads up to +maxlen+ bytes, waiting for readability as often as needed.
    # @param maxlen [Integer]
    # @param outbuf [String, nil]
    # @return [String]
    # @raise [EOFError] at end of file
    # @example
    #   r, w = IO.pipe
    #   concurrently { w.write "hi" }
    #   r.await_read(2) # => "hi"
    def await_read(maxlen, outbuf = nil)
      while true # rubocop:disable Style/InfiniteLoop -- no block per retry
        data = read_nonblock(maxlen, outbuf, exception: false)
        raise EOFError, "end of file reached" if data.nil?
        return data unless data == :wait_readable

        await_readable
      end
    end

    # Writes +string+ (or the part of it the IO accepts at once), waiting for
    # writability as often as needed.
    # @param string [String]
    # @return [Integer] bytes written
    # @example
    #   _r, w = IO.pipe
    #   w.await_written("hi") # => 2
    def await_written(string)
      while true # rubocop:disable Style/InfiniteLoop -- no block per retry
        written = write_nonblock(string, exception: false)
        return written unless written == :wait_writable

        await_writable
      end
    end

    # @return [Heddle::Proc::Evaluation] evaluating to what {#await_read} returns
    def concurrently_read(maxlen, outbuf = nil)
      READ_PROC.call_detached(self, maxlen, outbuf)
    end

    # @return [Heddle::Proc::Evaluation] evaluating to what {#await_written} returns
    def concurrently_write(string)
      WRITE_PROC.call_detached(self, string)
    end

    Options = KernelMethods::Options
    private_constant :Options
  end
end
