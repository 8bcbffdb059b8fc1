# frozen_string_literal: true

require_relative "../../masked_lock"

module Heddle
  module Workers
    module Ractors
      # The main ractor's one reader of its inbox: a thread that waits on the
      # {Ractors::Doorbell} pipe and, at each ring, drains the messages there
      # and routes each to its receiver's Thread::Queue (the pools' collector,
      # a ractor check's driver). One reader, because Ruby 3.1.2's
      # Ractor.receive_if, with two readers filtering, spun at 100% CPU
      # holding the GVL while only the other's messages were there (a pool
      # and a ractor check in one process hung). The thread runs
      # while a receiver is open; a message for a receiver not open waits
      # for the next one to open (a dropped pool's finalizer mailed from a
      # worker ractor; a check's late result, which its driver drops).
      module Mailroom
        # Seconds {.close} waits for the thread to end once no receiver is open.
        STOP_WAIT = 2.0
        @lock = MaskedLock.new
        @boxes = {}
        @held = {}
        @thread = nil

        class << self
          # Routes receiver's messages into box from now on (with those held
          # for it), and starts the thread if none runs.
          # @param receiver [Symbol] one of {Doorbell::RECEIVERS}
          # @param box [Thread::Queue]
          # @return [void]
          # @raise [ArgumentError] when receiver is not one of {Doorbell::RECEIVERS}
          def open(receiver, box)
            raise ArgumentError, "receiver: #{receiver.inspect} is not one of #{Doorbell::RECEIVERS}" unless
              Doorbell::RECEIVERS.include?(receiver)

            Doorbell.fileno # the pipe, before any worker ractor is given it
            @lock.synchronize do
              forget_parent
              @boxes[receiver] = box
              @held.delete(receiver)&.each { |message| box << message }
              @thread = start unless @thread&.alive? # none, or one an error or Thread#kill ended
            end
          end

          # Stops routing into box; with no receiver left the thread ends.
          # @param receiver [Symbol]
          # @param box [Thread::Queue] the one opened (a later one stays open)
          # @return [void]
          def close(receiver, box)
            thread = @lock.synchronize do
              @boxes.delete(receiver) if @boxes[receiver].equal?(box)
              @thread if @boxes.empty?
            end
            return unless thread

            Doorbell.ring
            thread.join(STOP_WAIT) unless thread == Thread.current
          end

          private

          def start
            thread = Workers.thread { run }
            thread.name = "heddle-ractor-mail"
            thread
          end

          # A forked child inherits the receivers' state, not the thread.
          def forget_parent
            return if @pid == Process.pid

            @pid = Process.pid
            @boxes.clear
            @held.clear
            @thread = nil
          end

          def run
            loop do
              Doorbell.wait
              Doorbell.drain.each { |message| deliver(message) }
              break if last_round?
            end
          end

          # A message not posted by {Doorbell.post} (a user's, sent to the
          # main ractor while pools run) is dropped: docs/workers.md.
          def deliver(message)
            return unless message.is_a?(Array) && message.size == 2 && Doorbell::RECEIVERS.include?(message[0])

            receiver, body = message
            @lock.synchronize { (@boxes[receiver] || (@held[receiver] ||= [])) << body }
          end

          # Once nothing is open the thread ends; an open after this starts a new one.
          def last_round?
            @lock.synchronize do
              next false unless @boxes.empty?

              @thread = nil
              true
            end
          end
        end
      end
    end
  end
end
