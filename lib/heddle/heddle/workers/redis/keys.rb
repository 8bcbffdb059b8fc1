# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # The names of every key heddle keeps in Redis, in one place. All start
      # with "heddle:"; a pool's keys with "heddle:pool:<id>:", so that its caller
      # can make them expire together.
      #
      # - `heddle:workers` (sorted set): live worker processes, scored by when their registration expires
      # - `heddle:slots` (hash): worker => how many items it runs at once
      # - `heddle:serves:<handler>` (sorted set): live workers that know the handler
      # - `heddle:pools:<handler>` (sorted set): live pools of the handler, scored by expiry
      # - `heddle:announce` (pub/sub channel): a pool appeared or went away; workers look again
      # - `heddle:pool:<id>:items` (stream, group "heddle"): the pool's chunks of items
      # - `heddle:pool:<id>:results` (stream): batches of results, read by the caller
      # - `heddle:pool:<id>:meta` (hash): the pool's handler and visibility timeout
      # - `heddle:pool:<id>:won:<job>` (hash): item index => the worker whose result won
      module Keys
        # The consumer group every worker reads a pool's items through.
        GROUP = "heddle"
        # Where workers hear of new pools.
        ANNOUNCE = "heddle:announce"
        # Live worker processes.
        WORKERS = "heddle:workers"
        # Items each worker runs at once.
        SLOTS = "heddle:slots"

        module_function

        # @param handler [Symbol, String] @return [String]
        def serves(handler) = "heddle:serves:#{handler}"

        # @param handler [Symbol, String] @return [String]
        def pools(handler) = "heddle:pools:#{handler}"

        # @param pool [String] the pool's id @return [String]
        def items(pool) = "heddle:pool:#{pool}:items"

        # @param pool [String] @return [String]
        def results(pool) = "heddle:pool:#{pool}:results"

        # @param pool [String] @return [String]
        def meta(pool) = "heddle:pool:#{pool}:meta"

        # @param pool [String] @param job [Integer, String] @return [String]
        def won(pool, job) = "heddle:pool:#{pool}:won:#{job}"
      end
    end
  end
end
