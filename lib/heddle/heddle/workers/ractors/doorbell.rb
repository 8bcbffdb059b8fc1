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
      # So a message is sent first and a byte written to a pipe after it: a
      # receiver waits on its pipe, then {.drain}s the messages already there,
      # and so never sleeps in Ractor.receive.
      #
      # One pipe per receiver in the main ractor: `:pools` for the ractor
      # pools' collector, `:checks` for Heddle::Check's ractor runner. The
      # sender names the receiver whose filter takes the message (never "the
      # pipe my ractor was given"): a pool's finalizer run in a check's worker
      # ractor mails the collector, and rings the collector's pipe.
      #
      # A byte only says "look": a drain takes all of its receiver's messages
      # up to a mark it sends itself, so no count of bytes has to match a count
      # of messages. A message whose byte went astray (or that a ractor with
      # no pipe sent) is taken at the receiver's next drain, never left behind
      # a wake-up that took a later one.
      module Doorbell
        # Receivers, each with its pipe.
        RECEIVERS = %i[pools checks].freeze
        # First element of the mark a drain sends the main ractor.
        MARK = :heddle_doorbell_mark
        @lock = Mutex.new
        @pipes = nil
        @filenos = nil # shareable: a ractor that was given none reads it
        @marks = 0

        class << self
          # In the main ractor: the writing ends' descriptors, for new worker ractors.
          # @return [Hash{Symbol => Integer}] shareable, receiver => descriptor
          def filenos
            pipes
            @filenos
          end

          # In a worker ractor: where its posts ring.
          # @param filenos [Hash{Symbol => Integer}, nil] from {.filenos}
          # @return [Hash{Symbol => IO}]
          def attach(filenos)
            Ractor.current[:heddle_doorbells] = (filenos || {}).transform_values do |fileno|
              IO.for_fd(fileno, autoclose: false).tap { |io| io.sync = true }
            end
          end

          # Sends message to the main ractor and rings receiver's pipe.
          # @param message [Array]
          # @param receiver [Symbol] :pools or :checks: whose filter takes message
          # @return [void]
          def post(message, receiver)
            Ractor.main.send(message)
            ring(receiver)
          end

          # In the main ractor: waits until receiver's pipe has rung and takes
          # the bytes that are there.
          # @param receiver [Symbol] :pools or :checks
          # @return [Integer] how many
          def wait(receiver) = pipes.fetch(receiver).first.readpartial(4096).size

          # In the main ractor: moves every message the block takes that is in
          # the main ractor's inbox now into `into`, in order, without waiting
          # for one: the drain ends at a mark it sends first, which
          # Ractor.receive_if finds at once. Marks left by an interrupted drain
          # are dropped on the way. Messages go into `into` as they are taken,
          # so an interrupt loses none.
          # In a worker ractor ({Ractors::ChunkRunner}) as well, with its own
          # mark serial (the main ractor's counter cannot be read there).
          # @param receiver [Symbol] :pools, :checks, or :worker in a worker ractor
          # @param into [Array]
          # @param serial [Integer, nil] the mark's number; nil takes the main ractor's next
          # @yieldparam message [Object]
          # @yieldreturn [Boolean] whether the message is the receiver's
          # @return [Array] into
          def drain(receiver, into, serial = nil, &mine)
            mark = [MARK, receiver, serial || @lock.synchronize { @marks += 1 }].freeze
            Ractor.current.send(mark)
            while (message = take { |m| mark_of?(m, receiver) || mine.call(m) }) != mark
              into << message unless mark_of?(message, receiver)
            end
            into
          end

          private

          # Ruby 4.0 has no Ractor.receive_if; there only the collector
          # receives (ractor checks take the pool runner), and what the
          # filter refuses is dropped.
          def take(&filter)
            return Ractor.receive_if(&filter) if Ractor.respond_to?(:receive_if)

            loop do
              message = Ractor.receive
              return message if filter.call(message)
            end
          end

          def mark_of?(message, receiver) = message.is_a?(Array) && message[0] == MARK && message[1] == receiver

          # Without blocking when the pipe has room: a worker thread coming
          # back from a blocking write has to take its ractor's scheduler
          # lock, and waits there for a barrier while a lane sending it the
          # next chunk waits for that lock (the same deadlock, the other way).
          def ring(receiver)
            bell = bells[receiver]
            return unless bell

            bell.write(".") if bell.write_nonblock(".", exception: false) == :wait_writable
          end

          # A ractor given no pipes (a user's, running a pool's finalizer)
          # opens the main ractor's current ones.
          def bells
            return pipes.transform_values(&:last) if Ractor.current == Ractor.main

            Ractor.current[:heddle_doorbells] || attach(@filenos)
          end

          # A forked child makes its own: the parent's receivers read the
          # inherited ones.
          def pipes
            @lock.synchronize do
              unless @pid == Process.pid
                @pid = Process.pid
                @pipes = RECEIVERS.to_h { |receiver| [receiver, IO.pipe.each { |io| io.sync = true }] }
                @filenos = Ractor.make_shareable(@pipes.transform_values { |(_, writer)| writer.fileno })
              end
              @pipes
            end
          end
        end
      end
    end
  end
end
