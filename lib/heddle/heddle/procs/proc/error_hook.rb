# frozen_string_literal: true

module Heddle
  class Proc
    # A registered +on(:error)+ or +once_on(:error)+ hook; {#cancel} removes it.
    class ErrorHook
      # @param registry [Array<ErrorHook>] the list the hook is in
      # @param block [::Proc]
      # @param instance_scope [Boolean] run the block with the proc as self
      # @param once [Boolean] cancel the hook before its first call
      def initialize(registry, block, instance_scope, once: false)
        @registry = registry
        @block = block
        @instance_scope = instance_scope
        @once = once
        @on_cancel = nil
        @cancelled = false
      end

      # @param proc [Heddle::Proc] the proc that raised
      # @param error [Exception]
      # @return [void]
      def call(proc, error)
        cancel if @once && !@cancelled
        @instance_scope ? proc.instance_exec(error, &@block) : @block.call(error)
      end

      # Removes the hook.
      # @return [true]
      # @raise [Heddle::Error] when already cancelled
      def cancel
        raise Heddle::Error, "already cancelled: this on(:error) hook was removed before" if @cancelled

        @registry.delete(self)
        @cancelled = true
        @on_cancel&.call
        true
      end

      # Runs +block+ when the hook is cancelled (callbacks_attachable's Callback#on_cancel).
      # @return [::Proc] the block
      # @raise [ArgumentError] without a block
      def on_cancel(&block)
        raise ArgumentError, "on_cancel needs a block" unless block

        @on_cancel = block
      end

      # @return [Boolean]
      def cancelled?
        @cancelled
      end
    end
  end
end
