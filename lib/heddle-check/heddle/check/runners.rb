# frozen_string_literal: true

require_relative "runners/chunking"
require_relative "runners/fork_per_batch"
require_relative "runners/inline"
require_relative "runners/pool"
require_relative "runners/ractors"
require_relative "runners/redis"
require_relative "runners/window"

module Heddle
  module Check
    # Where a check's cases run. Every runner answers `first_failure(cases,
    # deadline)` with the lowest-index failure of a batch, so that the engine
    # (generation, shrinking) is the same whatever the backend.
    module Runners
      # @param property [Property]
      # @param options [Options]
      # @return [Inline, Pool, Ractors, ForkPerBatch]
      def self.for(property, options)
        case options.worker
        when :inline then Inline.new(property)
        when :fork_per_batch then ForkPerBatch.new(property, size: options.size)
        when :redis then Redis.new(property, url: options.url, size: options.size)
        when :ractor
          Ractors.claim(property, options) || Pool.new(property, worker: :ractor, size: options.size)
        else Pool.new(property, worker: options.worker, size: options.size)
        end
      end
    end
  end
end
