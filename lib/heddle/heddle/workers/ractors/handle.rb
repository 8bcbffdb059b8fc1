# frozen_string_literal: true

module Heddle
  module Workers
    module Ractors
      # The main ractor's hold on one worker ractor: the ractor and the
      # writing end of a doorbell pipe of its own. A message goes by
      # Ractor#send and then a byte, and the worker's receiving thread waits
      # on the pipe and takes only messages already there
      # ({Ractors::ChunkRunner}), so that no send ever has to wake a thread
      # of the worker sleeping in Ractor.receive. That wake-up deadlocked
      # Ruby 3.3.8's VM when a stop was sent while the worker's other thread
      # woke from an item's sleep and a GC barrier was pending (the stress
      # script's killed shape; docs/journal/workers.md), as the
      # main ractor's own wake-ups did before {Ractors::Doorbell}.
      class Handle
        # @return [Ractor]
        attr_reader :ractor

        # Starts a worker ractor with a doorbell pipe of its own.
        # @yieldparam fileno [Integer] the reading end's descriptor, for the ractor
        # @yieldreturn [Ractor] the ractor started
        # @return [Handle]
        def self.start
          reader, writer = IO.pipe
          # The ractor reads this descriptor: no GC of ours may close it under it.
          reader.autoclose = false
          writer.sync = true
          new(yield(reader.fileno), writer)
        end

        # @param ractor [Ractor]
        # @param writer [IO] the doorbell's writing end
        def initialize(ractor, writer)
          @ractor = ractor
          @writer = writer
        end

        # Sends message to the ractor and rings its doorbell, without
        # blocking while the pipe has room (a ring is a byte per message).
        # @param message [Object]
        # @return [void]
        # @raise [Ractor::ClosedError] when the ractor has ended
        def post(message)
          @ractor.send(message)
          @writer.write(".") if @writer.write_nonblock(".", exception: false) == :wait_writable
        rescue IOError
          nil # let go ({#close}): the message is there for the ractor's next look
        end

        # Rings no more: the ractor's receiving thread reads the pipe's end,
        # takes what was sent and then only waits (a ractor let go).
        # @return [void]
        def close = @writer.close
      end
    end
  end
end
