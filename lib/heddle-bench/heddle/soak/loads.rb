# frozen_string_literal: true

require_relative "loads/churn"
require_relative "loads/doors"
require_relative "loads/idle"
require_relative "loads/pipes"
require_relative "loads/pools"
require_relative "loads/procs"
require_relative "loads/promises"
require_relative "loads/ractors"
require_relative "loads/sockets"
require_relative "loads/timeouts"

module Heddle
  module Soak
    # The loads a soak can run, by name. The built-in ones are below; a load
    # of another part joins with {register} (for instance the core's
    # "validate at the door" property, from a file given to
    # `heddle soak --require FILE`).
    #
    # @example
    #   Heddle::Soak::Loads.register(:door) { DoorProperty.new }
    module Loads
      @factories = {}

      class << self
        # @param name [Symbol]
        # @yieldparam options [Hash] the soak's options (`ractor:` ...)
        # @yieldreturn [Load] a new load
        # @return [void]
        def register(name, &factory)
          unless factory
            raise ArgumentError,
                  "a block is required: Heddle::Soak::Loads.register(#{name.inspect}) { ... }"
          end

          @factories[name.to_sym] = factory
        end

        # @return [Array<Symbol>] the registered names, in order
        def names = @factories.keys

        # @param names [Array<Symbol>]
        # @param options [Hash] handed to each factory
        # @return [Array<Load>] a new load for each name
        # @raise [UsageError] for an unknown name
        def build(names, options = {})
          names.map do |name|
            factory = @factories.fetch(name) do
              raise UsageError, "unknown load #{name.inspect}; the loads are #{self.names.join(', ')}"
            end
            factory.call(options)
          end.compact # a factory may decline (ractors on a Ruby that cannot run them)
        end
      end

      # The built-in loads, in the order a soak runs them.
      register(:procs) { Procs.new }
      register(:timeouts) { Timeouts.new }
      register(:pipes) { Pipes.new }
      register(:sockets) { Sockets.new }
      register(:promises) { Promises.new }
      register(:pools) { Pools.new }
      register(:ractors) { |options| Ractors.new if options.fetch(:ractor, false) }
      register(:doors) { Doors.new }
      register(:churn) { Churn.new }
      register(:idle) { Idle.new }
    end
  end
end
