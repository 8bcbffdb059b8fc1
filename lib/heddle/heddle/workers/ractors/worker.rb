# frozen_string_literal: true

require_relative "error_copy"
require_relative "chunk_runner"

module Heddle
  module Workers
    module Ractors
      # What a worker ractor runs. It touches only its arguments and constants
      # (a ractor cannot read the main ractor's state): chunks, each answered
      # with all its results at once (one hand-over per chunk, not per item),
      # tagged with the worker's token so {Ractors::Backend}'s collector can route
      # them, until `:stop`; see {Ractors::ChunkRunner}.
      #
      # Results go by `Ractor.main.send` ({Ractors::Doorbell.post}), not `Ractor.yield`: on Ruby 3.1 two
      # threads of one ractor taking from two ractors at once get each other's
      # values (the wait state is per ractor), which mixed up results. Only one
      # thread here ever waits on a ractor operation (receive); the runner only
      # sends, which never waits.
      module Worker
        module_function

        # @param token [Integer] the worker's address at the collector
        # @param handler [Proc] shareable
        # @param doorbell [Integer] {Ractors::Doorbell.fileno}
        # @param own [Integer] the descriptor of its own doorbell ({Ractors::Handle})
        # @return [void]
        def run(token, handler, doorbell, own)
          Ractors::Doorbell.attach(doorbell)
          Ractors::ChunkRunner.new(token, handler, own).serve
          Ractors::Doorbell.post([token, [:stopped]], :pools)
        rescue Exception => e # rubocop:disable Lint/RescueException -- the lane must hear of any end
          Ractors::Doorbell.post([token, [:crashed, "#{e.class}: #{e.message}"]], :pools)
        end
      end
    end
  end
end
