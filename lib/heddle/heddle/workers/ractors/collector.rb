# frozen_string_literal: true

require_relative "../../masked_lock"

module Heddle
  module Workers
    module Ractors
      # The thread of the main ractor that takes all ractor pools' messages:
      # worker ractors post `[token, message]` ({Ractors::Doorbell.post}),
      # the {Ractors::Mailroom} puts them in the collector's box, and the
      # collector hands each message to the inbox registered under that
      # token; a finalizer run in a worker ractor posts `[nil, [:release,
      # id]]` ({GCRelease}). (User code that calls `Ractor.receive` in the
      # main ractor while ractor pools run would take their messages; see
      # docs/workers.md.)
      class Collector
        # Seconds close waits for the collecting thread to stop.
        STOP_WAIT = 2.0
        # Tokens are never reused in a process, not even by a later collector:
        # a ractor let go by a killed pool may still send under its old one.
        @last_token = 0
        @token_lock = MaskedLock.new

        # @return [Integer] a token no worker of this process had before
        def self.next_token = @token_lock.synchronize { @last_token += 1 }

        def initialize
          @inboxes = {}
          @lock = MaskedLock.new
          @box = Thread::Queue.new
          Ractors::Mailroom.open(:pools, @box)
          @thread = Workers.thread { run }
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

        # Closes an inbox; with the last one the collector stops, and with it
        # the mailroom's thread unless a ractor check reads there too.
        # @param token [Integer]
        # @return [void]
        def close(token)
          last = @lock.synchronize { @inboxes.delete(token) && @inboxes.empty? }
          return unless last

          @box.push([nil, :stop])
          @thread.join(STOP_WAIT) unless Thread.current == @thread
        end

        # @return [Boolean] whether the collecting thread still runs
        def alive? = !@stopped && @thread.alive?

        private

        # Stops at a :stop only when no inbox was opened since it was asked;
        # then what is still in the box is handled (a release must not wait
        # for another collector; others' tokens have no inbox here).
        def run
          loop do
            break if handle(@box.pop) && @lock.synchronize { @stopped = @inboxes.empty? }
          end
          Ractors::Mailroom.close(:pools, @box)
          handle(@box.pop) until @box.empty?
        end

        # A message not shaped as heddle's ([token or nil, message]: code of
        # the user's posting to :pools) is dropped, not the collector's end.
        def ours?(message) = message.is_a?(Array) && message.size == 2 && (message[0].nil? || message[0].is_a?(Integer))

        # @return [Boolean] whether the message asks the collector to stop
        def handle(posted)
          return false unless ours?(posted)

          token, message = posted
          return addressed(message) if token.nil?

          @lock.synchronize { @inboxes[token] }&.push(message)
          false
        end

        # A message to the collector itself: :stop, or a pool's finalizer
        # that ran in a worker ractor ([:release, id]: see GCRelease).
        # @return [Boolean] whether it asks the collector to stop
        def addressed(message)
          return true if message == :stop

          GCRelease.release(message.last) if message.is_a?(Array) && message.first == :release
          false
        end
      end
    end
  end
end
