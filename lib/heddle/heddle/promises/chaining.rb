# frozen_string_literal: true

module Heddle
  module Promises
    # Callbacks and chaining for {Heddle::Promise}. Blocks run in the thread or
    # fiber that resolves the promise (or at once, in the caller, when it is
    # already resolved), so keep them short; an error a block raises rejects
    # the promise it returns instead of reaching the resolver.
    module Chaining
      # Calls the block with this promise once it is resolved.
      # @yieldparam promise [Heddle::Promise] this promise, resolved
      # @return [self]
      # @raise [ArgumentError] without a block
      # @example
      #   Heddle::Promise.fulfilled(2).on_resolve { |p| puts p.value }
      def on_resolve(&block)
        raise ArgumentError, "on_resolve needs a block to call with the resolved promise" unless block

        callback = BlockWaiter.new(self, block)
        callback.resume! unless register(callback)
        self
      end

      # A promise of the block's result on this promise's value; a rejection
      # passes through untouched.
      # @yieldparam value [Object] this promise's value
      # @return [Heddle::Promise] fulfilled with the block's result, or rejected
      #   with this promise's error or the error the block raised
      # @raise [ArgumentError] without a block
      # @example
      #   Heddle::Promise.fulfilled(2).then { |v| v * 10 }.value # => 20
      def then(&block)
        raise ArgumentError, "then needs a block mapping the value" unless block

        chain { |source, child| source.fulfilled? ? child.__send__(:settle) { block.call(source.peek) } : nil }
      end

      # A promise of the block's result on this promise's error; a fulfilled
      # value passes through untouched.
      # @param classes [Array<Class>] only these errors (default: StandardError)
      # @yieldparam error [Exception] this promise's error
      # @return [Heddle::Promise]
      # @raise [ArgumentError] without a block
      # @raise [TypeError] if a class is not a class or module
      # @example
      #   Heddle::Promise.rejected(KeyError).rescue { |e| e.class.name }.value # => "KeyError"
      def rescue(*classes, &block)
        raise ArgumentError, "rescue needs a block mapping the error" unless block

        check_rescue_classes(classes)

        classes = [StandardError] if classes.empty?
        chain do |source, child|
          error = source.reason
          classes.any? { |c| error.is_a?(c) } ? child.__send__(:settle) { block.call(error) } : nil
        end
      end

      # Checked at the call: a bad class would otherwise raise later, in
      # whichever thread resolves this promise.
      # @api private
      # @param classes [Array] what was passed to {#rescue}
      # @return [void]
      # @raise [TypeError] unless each is a class or module
      def check_rescue_classes(classes)
        bad = classes.find { |c| !c.is_a?(Module) }
        raise TypeError, "rescue takes exception classes (or modules), got #{bad.inspect[0, 60]}" unless bad.nil?
      end
      private :check_rescue_classes

      # @return [Object, nil] the value or error as it is now, without waiting
      #   or raising (nil while pending)
      def peek
        pending? ? nil : @value
      end

      private

      # Registers a callback that either settles the child itself (returns
      # truthy) or passes this promise's outcome through.
      def chain
        child = self.class.new
        on_resolve do |source|
          next if yield(source, child)

          source.fulfilled? ? child.try_fulfill(source.peek) : child.try_reject(source.reason)
        end
        child
      end

      # Fulfills with the block's result or rejects with what it raises.
      # @return [true]
      def settle
        try_fulfill(yield)
        true
      rescue Exception => e # rubocop:disable Lint/RescueException -- the error belongs to the promise's waiters
        try_reject(e)
        true
      end
    end
  end
end
