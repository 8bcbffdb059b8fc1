# frozen_string_literal: true

require "timeout"

module Heddle
  module Check
    module Runners
      # Runs cases one after another in the calling thread: no worker, no
      # copying, stops at the first failure (which is then the lowest index).
      class Inline
        # Shrink candidates handed over at once; small, since a failure stops the batch anyway.
        BATCH = 8

        # @param property [Property]
        def initialize(property)
          @predicate = property.predicate
          @mode = property.mode
        end

        # @return [Integer] how many shrink candidates to hand over per call
        def batch_size = BATCH

        # @param cases [Array<(Integer, Object)>] [index, args] in index order
        # @param deadline [Float, nil] monotonic clock time after which to give up
        # @return [(Integer, Exception), nil] the lowest-index failure
        # @raise [TimeoutError] past the deadline
        def first_failure(cases, deadline)
          return Handler.run_batch(@predicate, @mode, cases, portable: false) unless deadline

          remaining = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
          raise TimeoutError, "check ran past its timeout" unless remaining.positive?

          Timeout.timeout(remaining, TimeoutError, "check ran past its timeout") do
            Handler.run_batch(@predicate, @mode, cases, portable: false)
          end
        end

        # @param abort [Boolean] unused: nothing runs after a call returns
        # @return [void]
        def close(abort: false); end
      end
    end
  end
end
