# frozen_string_literal: true

require "heddle/masked_lock"

# The registry behind Heddle::Check.register.
module Heddle
  # Property-based checks; see lib/heddle-check/heddle/check.rb.
  module Check
    # Properties registered by name, so that `heddle worker` processes on other
    # machines can run them: a worker cannot receive a block, but it can
    # require the file that registers the same property under the same name.
    # Each registered property is also a handler (see {Heddle.handler}) named
    # "heddle.check.<name>", which runs a batch of cases as a pool runner's
    # workers do ({Handler.build}).
    module Registry
      @properties = {}
      @lock = Heddle::MaskedLock.new

      class << self
        # @param name [Symbol, String]
        # @param property [Property]
        # @return [Symbol] the name
        # @raise [ArgumentError] for a bad name
        # @raise [TypeError] unless property is a {Property}
        def register(name, property)
          raise TypeError, "expected a Heddle::Check::Property, got #{property.inspect}" unless property.is_a?(Property)

          key = Handlers.validate_name!(name)
          Heddle.handler(handler_name(key), Handler.plain(Handler.build(property.predicate, property.mode),
                                                          property.mode))
          @lock.synchronize { @properties[key] = property }
          key
        end

        # @param name [Symbol, String]
        # @return [Property]
        # @raise [TypeError] when no property has that name: what was given is not a property
        def fetch(name)
          property = @lock.synchronize { @properties[name.to_sym] if name.respond_to?(:to_sym) }
          return property if property

          raise TypeError, "expected a Heddle::Check::Property or the name of a registered one, got " \
                           "#{name.inspect}; register it with Heddle::Check.register(#{name.inspect}, property) " \
                           "(registered: #{names.inspect})"
        end

        # @param property [Property]
        # @return [Symbol, nil] the name it was registered under
        def name_of(property) = @lock.synchronize { @properties.key(property) }

        # @return [Array<Symbol>]
        def names = @lock.synchronize { @properties.keys.sort }

        # @param name [Symbol] @return [Symbol] the handler that runs the property's cases
        def handler_name(name) = :"heddle.check.#{name}"
      end
    end

    # Registers a property by name, for `Heddle::Check.check(name, worker:
    # :redis, url: ...)`: call it in a file that the caller and every `heddle
    # worker --require` load.
    #
    # @example
    #   sum_small = Heddle::Check.property(Heddle::Check.array(Heddle::Check.integer)) { |a| a.sum < 100 }
    #   Heddle::Check.register(:sum_small, sum_small)
    #   Heddle::Check.check(:sum_small, worker: :redis, url: "redis://127.0.0.1:6379/0", seed: 1)
    # @param name [Symbol, String] letters, digits and _ . / -
    # @param property [Property]
    # @return [Symbol] the name
    # @raise [ArgumentError, TypeError] for a bad name or property
    def self.register(name, property) = Registry.register(name, property)
  end
end
