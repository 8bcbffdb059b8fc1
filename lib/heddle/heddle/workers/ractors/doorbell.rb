# frozen_string_literal: true

module Heddle
  module Workers
    module Ractors
      # How worker ractors post to the main ractor without waking it through
      # Ruby's ractor scheduler. Ruby 3.3.8 and 3.4.5 deadlock the VM when a
      # ractor sends to a ractor whose thread sleeps in Ractor.receive (the
      # sender needs the receiver's scheduler lock) while a thread of the
      # receiver, waking up, holds that lock and waits for a GC or YJIT
      # barrier the sender never joins (docs/journal/workers.md, issue 30).
      # So a message is sent first and a byte written to a pipe after it: the
      # collector waits on the pipe, and calls Ractor.receive only for
      # messages already there, so that it never sleeps in it.
      #
      # One pipe per process and receiver: `:pools` for the collector,
      # `:checks` for Heddle::Check's ractor runner (whose driver takes its
      # messages with Ractor.receive_if). A worker ractor rings the one it
      # was {.attach}ed to.
      module Doorbell
        @lock = Mutex.new
        @pipes = {}

        class << self
          # In the main ractor: the reading end of a receiver's pipe.
          # @param receiver [Symbol] :pools or :checks
          # @return [IO]
          def reader(receiver = :pools) = pipe(receiver).first

          # In the main ractor: the writing end's descriptor, for new worker ractors.
          # @param receiver [Symbol] :pools or :checks
          # @return [Integer]
          def fileno(receiver = :pools) = pipe(receiver).last.fileno

          # In a worker ractor: where its posts ring.
          # @param fileno [Integer] from {.fileno}
          # @return [void]
          def attach(fileno)
            Ractor.current[:heddle_doorbell] = IO.for_fd(fileno, autoclose: false).tap { |io| io.sync = true }
          end

          # Sends message to the main ractor and rings: a worker ractor the
          # pipe it was {.attach}ed to (none if not), the main ractor receiver's.
          # @param message [Array]
          # @param receiver [Symbol] :pools or :checks (in the main ractor)
          # @return [void]
          def post(message, receiver = :pools)
            Ractor.main.send(message)
            ring(receiver)
          end

          # In the main ractor: waits until receiver's pipe has rung and takes
          # the bytes that are there; each stands for a message sent.
          # @param receiver [Symbol] :pools or :checks
          # @return [Integer] how many
          def wait(receiver = :pools) = reader(receiver).readpartial(4096).size

          private

          # Without blocking when the pipe has room: a worker thread coming
          # back from a blocking write has to take its ractor's scheduler
          # lock, and waits there for a barrier while a lane sending it the
          # next chunk waits for that lock (the same deadlock, the other way).
          def ring(receiver)
            bell = Ractor.current == Ractor.main ? pipe(receiver).last : Ractor.current[:heddle_doorbell]
            return unless bell

            bell.write(".") if bell.write_nonblock(".", exception: false) == :wait_writable
          end

          # A forked child makes its own: the parent's receivers read the
          # inherited ones.
          def pipe(receiver)
            @lock.synchronize do
              @pipes = {} unless @pid == Process.pid
              @pid = Process.pid
              @pipes[receiver] ||= IO.pipe.each { |io| io.sync = true }
            end
          end
        end
      end
    end
  end
end
