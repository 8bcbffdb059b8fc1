# frozen_string_literal: true

module Heddle
  module Promises
    # A block registered on a promise like a waiter: the promise "wakes" it by
    # calling {#resume!}, which runs the block with the resolved promise, in
    # the thread or fiber that resolved it. Behind `Promise#on_resolve`,
    # `Promise#then`, `Promise#rescue`, `Promise.any` and `Promise.all`.
    class BlockWaiter
      # @param promise [Heddle::Promise] the promise the block is called with
      # @param block [#call] called with the promise once it is resolved
      def initialize(promise, block)
        @promise = promise
        @block = block
      end

      # Runs the block. Called once, by the promise, after it is resolved.
      # @param _value [Object] ignored: the block reads the promise
      # @return [void]
      def resume!(_value = nil)
        @block.call(@promise)
      end
    end
  end
end
