# frozen_string_literal: true

module Heddle
  module Check
    # How big generated collections may be on a given run: small first, up to
    # `max_size` on the last run, as QuickCheck does, so that early failures
    # are already small and later runs still explore large inputs.
    module Sizing
      # Default upper size: collections and strings of up to 30 elements.
      MAX_SIZE = 30

      # @param index [Integer] 0-based run index
      # @param runs [Integer] total runs
      # @param max_size [Integer]
      # @return [Integer] the size for that run, 0..max_size
      def self.for_run(index, runs, max_size)
        return max_size if runs <= 1

        (index * max_size) / (runs - 1)
      end
    end
  end
end
