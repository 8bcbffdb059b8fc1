# frozen_string_literal: true

module Heddle
  module Workers
    # Framed Marshal messages over a pipe: a 5-byte header (length, kind) and
    # a Marshal payload. Framing lets the reader take a whole message before
    # loading it, so a payload that fails to load (an unknown class) costs
    # that one message, never the stream. Both sides read with {WireReader}.
    module Wire
      HEADER = "NC"
      HEADER_SIZE = 5

      # Message kinds.
      OK = 0       # a result
      RAISED = 1   # an exception (or a Workers::Error made by the worker)
      DONE = 2     # the end of a chunk
      WORK = 3     # a chunk: [fail_fast, items]
      STOP = 4     # stop the worker

      module_function

      # @param io [IO] a pipe's write end (sync)
      # @param kind [Integer]
      # @param payload [String] Marshal data
      # @return [void]
      def write(io, kind, payload = "")
        io.write([payload.bytesize, kind].pack(HEADER), payload)
      end
    end
  end
end
