# frozen_string_literal: true

require_relative "masked_lock"

# Named handlers: Heddle::Handlers and Heddle.handler.
module Heddle
  # The handlers a process knows, by name. A worker on another machine
  # cannot receive a block, so a Redis pool names its handler instead, and
  # the caller and every `heddle worker` require the same file of
  # `Heddle.handler` definitions. It needs no gem: heddle-check registers a
  # handler for every named property, whichever backend runs it.
  module Handlers
    # What a handler name may look like: it becomes part of Redis key names.
    NAME = %r{\A[A-Za-z0-9_./-]+\z}

    @table = {}
    @lock = MaskedLock.new

    class << self
      # @param name [Symbol, String] see {NAME}
      # @param callable [#call, Class, nil] an object answering call(item), or a class whose instances do
      # @yieldparam item [Object]
      # @return [Symbol] the name
      # @raise [ArgumentError] for a bad name, or neither or both of callable and a block
      # @raise [TypeError] when callable does not answer call
      def define(name, callable = nil, &block)
        key = validate_name!(name)
        if callable && block
          raise ArgumentError,
                "Heddle.handler(#{key.inspect}) takes a callable or a block, not both"
        end
        raise ArgumentError, "Heddle.handler(#{key.inspect}) needs a block or a callable" unless callable || block

        handler = block || instantiate(key, callable)
        @lock.synchronize { @table[key] = handler }
        key
      end

      # @param name [Symbol, String]
      # @return [#call, nil] the handler, nil when this process does not know the name
      def [](name) = @lock.synchronize { @table[name.to_sym] }

      # @return [Array<Symbol>] every known name, sorted
      def names = @lock.synchronize { @table.keys.sort }

      # @param name [Object]
      # @return [Symbol] the name as a Symbol
      # @raise [ArgumentError] unless a Symbol or String matching {NAME}
      def validate_name!(name)
        unless (name.is_a?(Symbol) || name.is_a?(String)) && NAME.match?(name.to_s)
          raise ArgumentError, "handler name must be a Symbol or String of letters, digits and _ . / -, " \
                               "got #{name.inspect}"
        end

        name.to_sym
      end

      # @api private
      # Forgets a handler (tests).
      # @return [void]
      def forget(name) = @lock.synchronize { @table.delete(name.to_sym) }

      private

      # A class whose instances answer call is instantiated once, here.
      def instantiate(name, callable)
        return callable if callable.respond_to?(:call)
        return callable.new if callable.is_a?(Class) && callable.method_defined?(:call)

        raise TypeError, "Heddle.handler(#{name.inspect}): #{callable.inspect} does not respond to call"
      end
    end
  end

  # (Heddle is documented in lib/heddle/heddle.rb; this adds Heddle.handler.)
  class << self
    # Names a handler for Redis pools (`Heddle::Pool.new(worker: :redis,
    # handler: name)`, `Heddle.map(items, worker: :redis, handler: name)`).
    # Define it in a file that the caller and every `heddle worker --require`
    # load, so both sides know it.
    #
    # @param name [Symbol, String] letters, digits and _ . / -
    # @param callable [#call, Class, nil] instead of a block: an object answering call(item),
    #   or a class whose instances do (one instance per process)
    # @yieldparam item [Object] one item
    # @yieldreturn [Object] its result (Marshal must be able to carry it)
    # @return [Symbol] the name
    # @raise [ArgumentError] for a bad name, or neither or both of a callable and a block
    # @example
    #   Heddle.handler(:square) { |n| n * n }
    #   # then: Heddle.map([1, 2, 3], worker: :redis, handler: :square, url: "redis://127.0.0.1:6379/0")
    def handler(name, callable = nil, &) = Handlers.define(name, callable, &)
  end
end
