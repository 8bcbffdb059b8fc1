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
      module Doorbell
        @lock = Mutex.new

        class << self
          # In the main ractor: the pipe's reading end (one per process).
          # @return [IO]
          def reader = pipe.first

          # In the main ractor: the writing end's descriptor, for new worker ractors.
          # @return [Integer]
          def fileno = pipe.last.fileno

          # In a worker ractor: where its posts ring.
          # @param fileno [Integer] from {.fileno}
          # @return [void]
          def attach(fileno)
            Ractor.current[:heddle_doorbell] = IO.for_fd(fileno, autoclose: false).tap { |io| io.sync = true }
          end

          # Sends message to the main ractor's collector and rings. From the
          # main ractor, or a ractor not {.attach}ed, it only rings when it can.
          # @param message [Array]
          # @return [void]
          def post(message)
            Ractor.main.send(message)
            ring
          end

          private

          # Without blocking when the pipe has room: a worker thread coming
          # back from a blocking write has to take its ractor's scheduler
          # lock, and waits there for a barrier while a lane sending it the
          # next chunk waits for that lock (the same deadlock, the other way).
          def ring
            bell = Ractor.current == Ractor.main ? pipe.last : Ractor.current[:heddle_doorbell]
            return unless bell

            bell.write(".") if bell.write_nonblock(".", exception: false) == :wait_writable
          end

          # A forked child makes its own: the parent's collector reads the
          # inherited one.
          def pipe
            @lock.synchronize do
              unless @pid == Process.pid
                @pipe = IO.pipe.each { |io| io.sync = true }
                @pid = Process.pid
              end
              @pipe
            end
          end
        end
      end
    end
  end
end
