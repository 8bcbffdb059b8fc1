# frozen_string_literal: true

module Heddle
  class Proc
    # A registered +on(:error)+ hook; {#cancel} removes it.
    class ErrorHook
      # @param registry [Array<ErrorHook>] the list the hook is in
      # @param block [::Proc]
      # @param instance_scope [Boolean] run the block with the proc as self
      def initialize(registry, block, instance_scope)
        @registry = registry
        @block = block
        @instance_scope = instance_scope
        @cancelled = false
      end

      # @param proc [Heddle::Proc] the proc that raised
      # @param error [Exception]
      # @return [void]
      def call(proc, error)
        @instance_scope ? proc.instance_exec(error, &@block) : @block.call(error)
      end

      # Removes the hook.
      # @return [true]
      # @raise [Heddle::Error] when already cancelled
      def cancel
        raise Heddle::Error, "already cancelled: this on(:error) hook was removed before" if @cancelled

        @registry.delete(self)
        @cancelled = true
      end

      # @return [Boolean]
      def cancelled?
        @cancelled
      end
    end
  end
end
