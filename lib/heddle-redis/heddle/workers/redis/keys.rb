# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # The names of every key heddle keeps in Redis, in one place, under a
      # namespace (default "heddle"): two applications on one Redis with
      # different namespaces never see each other's workers, pools or items.
      # A pool's keys start with "<ns>:pool:<id>:", so that its caller can
      # make them expire together.
      #
      # - `<ns>:workers` (sorted set): live worker processes, scored by when their registration expires
      # - `<ns>:alive` (sorted set): live processes with lanes, scored by when they count as dead
      # - `<ns>:slots` (hash): worker => how many items it runs at once
      # - `<ns>:fingerprints` (hash): worker => its secret's fingerprint ({Signer#fingerprint}), "-" for none
      # - `<ns>:serves:<handler>` (sorted set): live workers that know the handler
      # - `<ns>:pools:<handler>` (sorted set): live pools of the handler, scored by expiry
      # - `<ns>:announce` (pub/sub channel): a pool appeared or went away; workers look again
      # - `<ns>:pool:<id>:items` (stream, group "heddle"): the pool's chunks of items
      # - `<ns>:pool:<id>:results` (stream): batches of results, read by the caller
      # - `<ns>:pool:<id>:meta` (hash): the pool's handler and visibility timeout
      # - `<ns>:pool:<id>:won:<job>` (hash): item index => the worker whose result won
      class Keys
        # The consumer group every worker reads a pool's items through.
        GROUP = "heddle"
        # The namespace when none is given.
        DEFAULT_NAMESPACE = "heddle"
        # What a namespace may look like: it starts every key name.
        NAMESPACE = /\A[A-Za-z0-9_.:-]{1,100}\z/

        # @return [String]
        attr_reader :namespace, :announce, :workers, :alive, :slots, :fingerprints, :pool_prefix

        # @param namespace [String]
        # @raise [ArgumentError] unless a String matching {NAMESPACE}
        def initialize(namespace = DEFAULT_NAMESPACE)
          unless namespace.is_a?(String) && NAMESPACE.match?(namespace)
            raise ArgumentError, "namespace: must be a String of 1 to 100 letters, digits and _ . : -, got " \
                                 "#{namespace.inspect}"
          end

          @namespace = namespace
          @announce = "#{namespace}:announce"
          @workers = "#{namespace}:workers"
          @alive = "#{namespace}:alive"
          @slots = "#{namespace}:slots"
          @fingerprints = "#{namespace}:fingerprints"
          @pool_prefix = "#{namespace}:pool:"
        end

        # @param handler [Symbol, String] @return [String]
        def serves(handler) = "#{@namespace}:serves:#{handler}"

        # @param handler [Symbol, String] @return [String]
        def pools(handler) = "#{@namespace}:pools:#{handler}"

        # @param pool [String] the pool's id @return [String]
        def items(pool) = "#{@pool_prefix}#{pool}:items"

        # @param pool [String] @return [String]
        def results(pool) = "#{@pool_prefix}#{pool}:results"

        # @param pool [String] @return [String]
        def meta(pool) = "#{@pool_prefix}#{pool}:meta"

        # @param pool [String] @param job [Integer, String] @return [String]
        def won(pool, job) = "#{@pool_prefix}#{pool}:won:#{job}"
      end
    end
  end
end
