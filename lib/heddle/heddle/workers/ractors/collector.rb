# frozen_string_literal: true

module Heddle
  module Workers
    module Ractors
      # The one thread of the main ractor that calls `Ractor.receive` for all
      # ractor pools: worker ractors send `[token, message]` and the collector
      # hands each message to the inbox registered under that token; a
      # finalizer run in a worker ractor sends `[nil, [:release, id]]`
      # ({GCRelease}). (User code
      # that calls `Ractor.receive` in the main ractor while ractor pools run
      # would take their messages; see docs/workers.md.)
      class Collector
        # Seconds close waits for the collecting thread to stop.
        STOP_WAIT = 2.0
        # Tokens are never reused in a process, not even by a later collector:
        # a ractor let go by a killed pool may still send under its old one.
        @last_token = 0
        @token_lock = Mutex.new

        # @return [Integer] a token no worker of this process had before
        def self.next_token = @token_lock.synchronize { @last_token += 1 }

        def initialize
          @inboxes = {}
          @lock = Mutex.new
          @thread = Thread.new { run }
          @thread.name = "heddle-ractor-collector"
        end

        # @param inbox [Thread::Queue]
        # @return [Integer, nil] the token a worker tags its messages with; nil
        #   when this collector has stopped (ask {Ractors::Backend.open_inbox})
        def open(inbox)
          @lock.synchronize do
            return nil if @stopped

            token = Ractors::Collector.next_token
            @inboxes[token] = inbox
            token
          end
        end

        # Closes an inbox; with the last one the collector stops, so that no
        # thread of ours sits in Ractor.receive once no pool needs it (on 3.1
        # it would hang other threads' Ractor.take/select in the main ractor).
        # @param token [Integer]
        # @return [void]
        def close(token)
          last = @lock.synchronize { @inboxes.delete(token) && @inboxes.empty? }
          return unless last

          Ractor.current.send([nil, :stop])
          # Shutdown returns only once the thread has left Ractor.receive.
          @thread.join(STOP_WAIT) unless Thread.current == @thread
        end

        # @return [Boolean] whether the collecting thread still runs
        def alive? = !@stopped && @thread.alive?

        private

        def run
          loop do
            token, message = Ractor.receive
            # A pool's finalizer that ran in a worker ractor: see GCRelease.
            next GCRelease.release(message.last) if token.nil? && message != :stop

            inbox = @lock.synchronize do
              return @stopped = true if token.nil? && @inboxes.empty?

              @inboxes[token]
            end
            inbox&.push(message)
          end
        end
      end
    end
  end
end
