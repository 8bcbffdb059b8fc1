# frozen_string_literal: true

module Loom
  module Check
    # What a worker runs: a batch of [index, args] pairs through the property
    # block, stopping at the first failure. Lives in a module so that the
    # handler Proc it builds has a shareable self (ractor pools need that).
    module Handler
      # Exceptions that mean "stop the program", never "the property failed".
      FATAL = [SignalException, SystemExit, NoMemoryError, Loom::Check::TimeoutError].freeze

      # @param predicate [Proc] the property block (made shareable for ractors)
      # @param mode [Symbol] :single, :positional or :keywords
      # @return [Proc] ->(batch) { nil or [index, error] }
      def self.build(predicate, mode)
        ->(batch) { Handler.run_batch(predicate, mode, batch) }
      end

      # @param predicate [Proc]
      # @param mode [Symbol]
      # @param batch [Array<(Integer, Object)>] [index, args] pairs, in index order
      # @param portable [Boolean] replace errors Marshal cannot carry (process workers)
      # @return [(Integer, Exception), nil] the first failure of the batch, or nil
      def self.run_batch(predicate, mode, batch, portable: true)
        batch.each do |index, args|
          invoke(predicate, mode, args)
        rescue *FATAL
          raise
        rescue Exception => e # rubocop:disable Lint/RescueException -- minitest and RSpec failures are Exceptions
          return [index, portable ? RemoteError.portable(e) : e]
        end
        nil
      end

      # Calls the block once in the shape the property was declared with.
      #
      # @return [Object] the block's result
      # @raise [PropertyFalse] when the block returns false
      def self.invoke(predicate, mode, args)
        result = case mode
                 when :single then predicate.call(args)
                 when :positional then predicate.call(*args)
                 else predicate.call(**args)
                 end
        raise PropertyFalse, "property returned false", where(predicate) if result == false

        result
      end

      # @param predicate [Proc]
      # @return [Array<String>] a backtrace naming the block (a `false` has no line of its own)
      def self.where(predicate)
        file, line = predicate.source_location
        file ? ["#{file}:#{line}:in `property block'"] : []
      end
    end
  end
end
