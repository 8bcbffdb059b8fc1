# frozen_string_literal: true

module Heddle
  module Workers
    # Reads {Wire} frames from a pipe (the parent its workers' results, a
    # worker its chunks) through a buffer of its own: one `readpartial`
    # takes every frame written so far, where `IO#read` made two system
    # calls (header, payload) per frame, each releasing and retaking the GVL. The worker still writes each result as
    # soon as it has it, so a worker that dies loses nothing it had sent.
    class WireReader
      CHUNK = 65_536

      # @param io [IO] a pipe's read end (binmode)
      def initialize(io)
        @io = io
        @buffer = String.new(capacity: CHUNK, encoding: Encoding::BINARY)
        @scratch = String.new(capacity: CHUNK, encoding: Encoding::BINARY)
        @pos = 0 # where the next frame starts in @buffer
      end

      # @return [Boolean] whether a whole frame is already buffered (no wait needed)
      def frame_buffered?
        left = @buffer.bytesize - @pos
        left >= Wire::HEADER_SIZE && left >= Wire::HEADER_SIZE + @buffer.unpack1("N", offset: @pos)
      end

      # @return [Array(Integer, String), nil] kind and payload; nil at EOF
      #   (also when the stream ends inside a frame)
      def read
        fill(Wire::HEADER_SIZE) or return nil
        length, kind = @buffer.unpack(Wire::HEADER, offset: @pos)
        fill(Wire::HEADER_SIZE + length) or return nil
        payload = @buffer.byteslice(@pos + Wire::HEADER_SIZE, length)
        @pos += Wire::HEADER_SIZE + length
        [kind, payload]
      end

      private

      # Reads until at least +size+ bytes from @pos are buffered; false at EOF.
      def fill(size)
        while @buffer.bytesize - @pos < size
          compact
          @io.readpartial(CHUNK, @scratch)
          @buffer << @scratch
        end
        true
      rescue EOFError
        false
      end

      # Drops the frames already read (once per refill, not per frame).
      def compact
        return if @pos.zero?

        @buffer = @buffer.byteslice(@pos, @buffer.bytesize - @pos)
        @pos = 0
      end
    end
  end
end
