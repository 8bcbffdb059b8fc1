# frozen_string_literal: true

require "heddle/masked_lock"

module Heddle
  module Check
    module Runners
      # The chunks of one `first_failure` call on a pool, numbered in index
      # order: how many are in flight, which have come back, and the lowest
      # failure so far.
      #
      # Chunks are taken back in the order they finish, not the order they
      # were sent. With in-order waiting, a worker that finished its chunk sat
      # idle until the driver had waited for an earlier chunk on the other
      # worker. Lowest-index-failure-wins still holds: a failure is {#decided}
      # only once every chunk before it has come back.
      class Window
        # @return [Integer] chunks sent and not yet taken back
        attr_reader :in_flight

        def initialize
          @lock = Heddle::MaskedLock.new
          @arrived = Thread::ConditionVariable.new
          @returned = [] # [number, promise] of chunks back, not yet taken
          @sent = 0
          @in_flight = 0
          @settled = []
          @lowest_open = 0 # every chunk numbered below this has been settled
          @failure = nil # [number, failure] of the lowest failing chunk so far
        end

        # Counts a chunk as sent.
        # @return [Integer] its number
        def open
          @in_flight += 1
          (@sent += 1) - 1
        end

        # Counts a chunk as taken back (callers that wait by themselves).
        # @return [void]
        def close = @in_flight -= 1

        # Sends a pool chunk's promise back to {#take} once it is resolved.
        # @param promise [Heddle::Promise] of a chunk's [failure, seconds per run]
        # @return [void]
        def watch(promise)
          number = open
          promise.on_resolve do |done|
            @lock.synchronize do
              @returned << [number, done]
              @arrived.signal
            end
          end
        end

        # Waits for the next chunk to come back, whichever it is.
        # @param deadline [Float, nil] monotonic clock time after which to give up
        # @return [(Integer, Heddle::Promise)] the chunk's number and its resolved promise
        # @raise [TimeoutError] past the deadline
        def take(deadline)
          @lock.synchronize do
            while @returned.empty?
              Thread.handle_interrupt(Heddle::Masks::INTERRUPTIBLE) { @arrived.wait(@lock, remaining(deadline)) }
            end
            @in_flight -= 1
            @returned.shift
          end
        end

        # Records what a chunk taken back found.
        # @param number [Integer]
        # @param failure [(Integer, Exception), nil]
        # @return [void]
        def settle(number, failure)
          @settled[number] = true
          @failure = [number, failure] if failure && (@failure.nil? || number < @failure[0])
          @lowest_open += 1 while @settled[@lowest_open]
        end

        # @return [Boolean] whether some chunk failed (send no more)
        def failed? = !@failure.nil?

        # @return [(Integer, Exception), nil] the lowest failure, once no chunk before it is out
        def decided
          @failure[1] if @failure && @lowest_open > @failure[0]
        end

        private

        def remaining(deadline)
          return nil unless deadline

          left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
          raise TimeoutError, "check ran past its timeout" unless left.positive?

          left
        end
      end
    end
  end
end
