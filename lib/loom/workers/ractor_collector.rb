# frozen_string_literal: true

module Loom
  module Workers
    # The one thread of the main ractor that calls `Ractor.receive` for all
    # ractor pools: worker ractors send `[token, message]` and the collector
    # hands each message to the inbox registered under that token. (User code
    # that calls `Ractor.receive` in the main ractor while ractor pools run
    # would take their messages; see docs/workers.md.)
    class RactorCollector
      def initialize
        @inboxes = {}
        @lock = Mutex.new
        @next_token = 0
        @thread = Thread.new { run }
        @thread.name = "loom-ractor-collector"
      end

      # @param inbox [Thread::Queue]
      # @return [Integer] the token a worker tags its messages with
      def open(inbox)
        @lock.synchronize do
          @next_token += 1
          @inboxes[@next_token] = inbox
          @next_token
        end
      end

      # @param token [Integer]
      # @return [void]
      def close(token)
        @lock.synchronize { @inboxes.delete(token) }
      end

      private

      def run
        loop do
          token, message = Ractor.receive
          inbox = @lock.synchronize { @inboxes[token] }
          inbox&.push(message)
        end
      end
    end
  end
end
