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

          Ractors::Doorbell.post([nil, :stop], :pools)
          # Shutdown returns only once the thread has left Ractor.receive.
          @thread.join(STOP_WAIT) unless Thread.current == @thread
        end

        # @return [Boolean] whether the collecting thread still runs
        def alive? = !@stopped && @thread.alive?

        private

        # Takes only messages already there, all of them at each ring of the
        # doorbell ({Ractors::Doorbell.drain}), so that this thread never
        # sleeps in Ractor.receive. A drain is handled whole before the
        # collector stops: a stopped collector receives nothing, so none of
        # the next collector's messages can reach it.
        def run
          until @stopped
            Ractors::Doorbell.wait(:pools)
            asks = Ractors::Doorbell.drain(:pools, []) { |m| ours?(m) }.map { |m| handle(*m) } # no short cut
            @lock.synchronize { @stopped = true if asks.any? && @inboxes.empty? }
          end
        end

        # Messages of others (Heddle::Check's ractor runner, which rings its
        # own pipe) stay for them: taking one would leave one of ours unrung.
        def ours?(message) = message.is_a?(Array) && message.size == 2 && (message[0].nil? || message[0].is_a?(Integer))

        # @return [Boolean] whether the message asks the collector to stop
        def handle(token, message)
          return true if token.nil? && message == :stop

          # A pool's finalizer that ran in a worker ractor: see GCRelease.
          if token.nil?
            GCRelease.release(message.last)
          else
            @lock.synchronize { @inboxes[token] }&.push(message)
          end
          false
        end
      end
    end
  end
end
