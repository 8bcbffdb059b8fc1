# frozen_string_literal: true

require_relative "backends"
require_relative "options"

module Heddle
  module Workers
    # Pool.new's arguments once checked: {.check!} is the only way to make
    # one, so whoever holds one ({Heddle::Pool.checked}, {Heddle.map}) builds
    # on it without checking again (each argument is checked once per call).
    class PoolOptions
      # @return [Symbol] the worker kind, one of {Backends::NAMES}
      attr_reader :worker
      # @return [Integer, nil] workers; nil for the kind's default
      attr_reader :size
      # @return [Numeric, nil] seconds per item, nil for no limit
      attr_reader :item_timeout
      # @return [Boolean] (:process) fork each worker when first needed
      attr_reader :lazy
      # @return [Hash] (a remote backend, :redis) the backend's options
      attr_reader :remote

      class << self
        # Checks Pool.new's arguments (also {Heddle.map}'s, before it reads an item).
        # @param worker [Object]
        # @param size [Object]
        # @param handler [Proc, nil] the pool's block
        # @param item_timeout [Object]
        # @param lazy [Object]
        # @param remote [Hash] the keywords left over (a remote backend's options: worker: :redis's)
        # @param block_checked [Boolean] the caller has already asked for a block (Heddle.map)
        # @return [PoolOptions]
        # @raise [ArgumentError, TypeError] naming the bad argument
        def check!(worker, size, handler, item_timeout: nil, lazy: false, remote: {}, block_checked: false) # rubocop:disable Metrics/ParameterLists -- Pool.new's keywords, checked in one place
          Options.worker!(worker)
          Options.size!(size, worker)
          item_timeout = Options.seconds!(:item_timeout, item_timeout)
          backend = Backends.fetch(worker)
          if Options.boolean!(:lazy, lazy) && !backend.takes?(:lazy)
            raise ArgumentError, "lazy: true is for worker: #{names_taking(:lazy)} only (got worker: #{worker.inspect})"
          end

          if backend.remote?
            backend.backend_class.validate!(handler, remote)
          else
            check_local!(worker, handler, remote, block_checked)
          end
          new(worker, size, item_timeout, lazy, remote)
        end

        private

        # A local worker takes a block and none of a remote backend's options.
        def check_local!(worker, handler, remote, block_checked)
          unless remote.empty?
            names = remote.keys.map { |k| "#{k}:" }.join(", ")
            raise ArgumentError, "unknown keyword#{'s' if remote.size > 1}: #{names} " \
                                 "(options of worker: #{names_taking(:remote)} only)"
          end

          Options.block!(handler, "Heddle::Pool.new(worker: #{worker.inspect})") unless block_checked
        end

        # The backends that take a keyword, as messages name them (":process").
        def names_taking(keyword) = Backends.taking(keyword).map(&:inspect).join(", ")
      end

      private_class_method :new

      # @param worker [Symbol]
      # @param size [Integer, nil]
      # @param item_timeout [Numeric, nil]
      # @param lazy [Boolean]
      # @param remote [Hash]
      def initialize(worker, size, item_timeout, lazy, remote)
        @worker = worker
        @size = size
        @item_timeout = item_timeout
        @lazy = lazy
        @remote = remote.frozen? ? remote : remote.dup.freeze
        freeze
      end

      # The options of a one-off pool for `count` items ({Heddle.map}): no
      # more workers than items, whether the size was given or the default
      # (size: 10_000 threads for 2 items started 10,000 threads).
      # @param count [Integer]
      # @return [PoolOptions] self, or a copy with the size filled in
      def sized_for(count)
        return self if Backends.remote?(@worker) # its size is the remote workers' concurrency, not a pool's

        size = @size || Backends.fetch(@worker).default
        size = [size, count].min.clamp(1, nil)
        return self if size == @size

        self.class.send(:new, @worker, size, @item_timeout, @lazy, @remote)
      end

      # The options of a one-off pool for a map bounded by +seconds+
      # ({Heddle.map}'s timeout:): a remote pool gives up connecting by then
      # (its backend class's `.within`: Redis::Backend.within).
      # @param seconds [Numeric, nil]
      # @return [PoolOptions] self, or a copy with the remote options bounded
      def within(seconds)
        return self unless seconds && Backends.remote?(@worker)

        remote = Backends.fetch(@worker).backend_class.within(@remote, seconds)
        return self if remote.equal?(@remote)

        self.class.send(:new, @worker, @size, @item_timeout, @lazy, remote)
      end

      # @return [Hash] the keywords the backend takes besides size, handler and item_timeout
      def backend_options = @lazy ? { lazy: true } : @remote
    end
  end
end
