# frozen_string_literal: true

module Heddle
  module Check
    module Runners
      # The baseline of the `checks` benchmark: what Pbt 0.4's process worker
      # did, forking fresh processes (with the parallel gem) for every batch
      # of runs and for every shrink step. Not for real use.
      class ForkPerBatch
        # @param property [Property]
        # @param size [Integer] processes per batch
        # @raise [HarnessError] when the parallel gem is missing
        def initialize(property, size:)
          begin
            require "parallel"
          rescue LoadError
            raise HarnessError, "worker: :fork_per_batch needs the parallel gem; add it to your Gemfile"
          end
          @handler = Handler.build(property.predicate, property.mode)
          @size = size
        end

        # @return [Integer] how many shrink candidates to hand over per call
        def batch_size = @size * Chunking::BATCH_PER_WORKER

        # @param cases [Array<(Integer, Object)>]
        # @param _deadline [Float, nil] ignored
        # @return [(Integer, Exception), nil] the lowest-index failure
        def first_failure(cases, _deadline)
          chunks = cases.each_slice((cases.size.to_f / @size).ceil).to_a
          Parallel.map(chunks.map { |c| [0, c] }, in_processes: @size, &@handler).filter_map(&:first).min_by(&:first)
        end

        # @param abort [Boolean] unused: every batch's processes end with the batch
        # @return [void]
        def close(abort: false); end
      end
    end
  end
end
