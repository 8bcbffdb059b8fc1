# frozen_string_literal: true

require_relative "../../masked_lock"

module Heddle
  module Workers
    module Ractors
      # How worker ractors post to the main ractor without waking it through
      # Ruby's ractor scheduler. Ruby 3.3.8 and 3.4.5 deadlock the VM when a
      # ractor sends to a ractor whose thread sleeps in Ractor.receive (the
      # sender needs the receiver's scheduler lock) while a thread of the
      # receiver, waking up, holds that lock and waits for a GC or YJIT
      # barrier the sender never joins (docs/journal/workers.md).
      # So a message is sent first and a byte written to a pipe after it: the
      # main ractor's one reader ({Ractors::Mailroom}) waits on the pipe, then
      # {.drain}s the messages already there, and never sleeps in
      # Ractor.receive.
      #
      # A message goes as `[receiver, message]`: the sender names whose it is
      # (`:pools`, the ractor pools' collector; `:checks`, Heddle::Check's
      # ractor runner), and the mailroom routes it. A byte only says "look": a
      # drain takes every message up to a mark it sends itself, so no count of
      # bytes has to match a count of messages, and a message whose byte went
      # astray is taken at the next drain.
      module Doorbell
        # Receivers in the main ractor.
        RECEIVERS = %i[pools checks].freeze
        # First element of the mark a drain sends its own ractor.
        MARK = :heddle_doorbell_mark
        @lock = MaskedLock.new
        @pipe = nil
        @fileno = nil # shareable: a ractor that was given none reads it
        @marks = 0

        class << self
          # In the main ractor: the writing end's descriptor, for new worker ractors.
          # @return [Integer]
          def fileno
            pipe
            @fileno
          end

          # In a worker ractor: where its posts ring.
          # @param fileno [Integer, nil] from {.fileno}
          # @return [IO, nil]
          def attach(fileno)
            Ractor.current[:heddle_doorbell] = fileno && IO.for_fd(fileno, autoclose: false).tap { |io| io.sync = true }
          end

          # Sends message to the main ractor for receiver, and rings.
          # @param message [Object]
          # @param receiver [Symbol] one of {RECEIVERS}
          # @return [void]
          def post(message, receiver)
            Ractor.main.send([receiver, message])
            ring
          end

          # Without blocking while the pipe has room: a worker thread coming
          # back from a blocking write has to take its ractor's scheduler
          # lock, and waits there for a barrier while a lane sending it the
          # next chunk waits for that lock (the same deadlock, the other way).
          # @return [void]
          def ring
            bell = Ractor.current == Ractor.main ? pipe.last : Ractor.current[:heddle_doorbell] || attach(@fileno)
            return unless bell # no pipe was ever made: no reader to wake, the next one drains

            bell.write(".") if bell.write_nonblock(".", exception: false) == :wait_writable
          end

          # In the main ractor: waits until the pipe has rung and takes the
          # bytes that are there.
          # @return [Integer] how many
          def wait = pipe.first.readpartial(4096).size

          # Takes every message in the current ractor's inbox now, in order,
          # without waiting for one: the drain ends at a mark it sends first,
          # which plain Ractor.receive reaches at once (its ractor's one
          # reader calls it: no Ractor.receive_if, which on Ruby 3.1 spins
          # holding the GVL while only messages it refuses are there). Marks
          # an interrupted drain left are dropped on the way.
          # @param serial [Integer, nil] the mark's number; nil takes the main ractor's next
          # @return [Array] the messages, in order
          def drain(serial = nil)
            mark = [MARK, serial || @lock.synchronize { @marks += 1 }].freeze
            Ractor.current.send(mark)
            into = []
            while (message = Ractor.receive) != mark
              into << message unless message.is_a?(Array) && message[0] == MARK
            end
            into
          end

          private

          # A forked child makes its own: the parent's reader reads the inherited one.
          def pipe
            @lock.synchronize do
              unless @pid == Process.pid
                @pid = Process.pid
                @pipe = IO.pipe.each { |io| io.sync = true }
                @fileno = @pipe.last.fileno
              end
              @pipe
            end
          end
        end
      end
    end
  end
end
