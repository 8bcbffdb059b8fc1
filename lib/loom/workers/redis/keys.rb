# frozen_string_literal: true

module Loom
  module Workers
    module Redis
      # The names of every key loom keeps in Redis, in one place. All start
      # with "loom:"; a pool's keys with "loom:pool:<id>:", so that its caller
      # can make them expire together.
      #
      # - `loom:workers` (sorted set): live worker processes, scored by when their registration expires
      # - `loom:slots` (hash): worker => how many items it runs at once
      # - `loom:serves:<handler>` (sorted set): live workers that know the handler
      # - `loom:pools:<handler>` (sorted set): live pools of the handler, scored by expiry
      # - `loom:announce` (pub/sub channel): a pool appeared or went away; workers look again
      # - `loom:pool:<id>:items` (stream, group "loom"): the pool's chunks of items
      # - `loom:pool:<id>:results` (stream): batches of results, read by the caller
      # - `loom:pool:<id>:meta` (hash): the pool's handler and visibility timeout
      # - `loom:pool:<id>:won:<job>` (hash): item index => the worker whose result won
      module Keys
        # The consumer group every worker reads a pool's items through.
        GROUP = "loom"
        # Where workers hear of new pools.
        ANNOUNCE = "loom:announce"
        # Live worker processes.
        WORKERS = "loom:workers"
        # Items each worker runs at once.
        SLOTS = "loom:slots"

        module_function

        # @param handler [Symbol, String] @return [String]
        def serves(handler) = "loom:serves:#{handler}"

        # @param handler [Symbol, String] @return [String]
        def pools(handler) = "loom:pools:#{handler}"

        # @param pool [String] the pool's id @return [String]
        def items(pool) = "loom:pool:#{pool}:items"

        # @param pool [String] @return [String]
        def results(pool) = "loom:pool:#{pool}:results"

        # @param pool [String] @return [String]
        def meta(pool) = "loom:pool:#{pool}:meta"

        # @param pool [String] @param job [Integer, String] @return [String]
        def won(pool, job) = "loom:pool:#{pool}:won:#{job}"
      end
    end
  end
end
