# frozen_string_literal: true

require_relative "chunking"
require_relative "pool"
require_relative "../registry"

module Heddle
  module Check
    module Runners
      # Runs a registered property's cases on `heddle worker` processes through
      # a Redis pool (`worker: :redis, url:`). Chunks go out and come back as
      # on a local pool ({Pool}: a probe, shrinking chunks, the lowest-index
      # failure wins once every chunk before it is back), so a seed gives the
      # same counterexample as inline; the chunks are submitted items of the
      # property's handler, which the workers know from the file that
      # registers it ({Registry}). Workers finish the chunks already sent.
      class Redis < Pool
        # @param property [Property] a property registered with {Check.register}
        # @param url [String] the Redis URL
        # @param size [Integer] slots to plan for; the live workers' own count when larger
        # @raise [ArgumentError] when the property is not registered or url is missing
        def initialize(property, url:, size:) # rubocop:disable Lint/MissingSuper -- Pool#initialize builds a local pool; this one is remote
          name = Registry.name_of(property)
          unless name
            raise ArgumentError, "worker: :redis runs properties registered by name: call " \
                                 "Heddle::Check.register(:name, property) in a file the workers require too"
          end

          @pool = Plain.new(Heddle::Pool.new(worker: :redis, handler: Registry.handler_name(name), url: url),
                            property.mode)
          @chunking = Chunking.new([size, @pool.size].max)
        end

        # The Redis pool, its chunks' failures made exceptions again (the
        # workers send them as plain data: {Handler.plain}).
        class Plain
          # @param pool [Heddle::Pool]
          # @param mode [Symbol] the property's mode (keyword arguments travel with String keys)
          def initialize(pool, mode)
            @pool = pool
            @mode = mode
          end

          # @return [Integer]
          def size = @pool.size

          # @param item [(Integer, Array)] [generation, [index, args] pairs] @return [Heddle::Promise]
          def submit(item)
            generation, batch = item
            batch = batch.map { |index, args| [index, args.transform_keys(&:to_s)] } if @mode == :keywords
            @pool.submit([generation, batch]).then do |failure, seconds|
              [failure && [failure[0], RemoteError.new(*failure[1])], seconds]
            end
          end

          # @return [void]
          def shutdown(...) = @pool.shutdown(...)
        end

        # Shuts the pool down, which deletes its entries: workers skip what is left.
        # @return [void]
        def close(**) = @pool.shutdown(kill: true)
      end
    end
  end
end
