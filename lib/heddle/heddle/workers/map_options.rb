# frozen_string_literal: true

module Heddle
  module Workers
    # A map's `timeout:` and `fail_fast:` once checked: {.check!} and
    # {.from!} are the only ways to make one, so {Heddle::Pool#map_checked}
    # runs the map without checking them again.
    class MapOptions
      # @return [Numeric, nil] seconds for the whole map, nil for no limit
      attr_reader :timeout
      # @return [Boolean] stop at the first error
      attr_reader :fail_fast

      class << self
        # @param timeout [Object]
        # @param fail_fast [Object]
        # @return [MapOptions]
        # @raise [ArgumentError, TypeError] naming the bad option
        def check!(timeout, fail_fast)
          Options.boolean!(:fail_fast, fail_fast)
          new(Options.seconds!(:timeout, timeout), fail_fast)
        end

        # Checks the map options a caller passes on in a Hash, unknown ones included.
        # @param options [Hash] `timeout:` and `fail_fast:`
        # @return [MapOptions]
        # @raise [ArgumentError, TypeError] naming the bad option
        def from!(options)
          unknown = options.keys - %i[timeout fail_fast]
          unless unknown.empty?
            raise ArgumentError, "unknown keyword#{'s' if unknown.size > 1}: #{unknown.map(&:inspect).join(', ')} " \
                                 "(map options are timeout: and fail_fast:)"
          end
          check!(options[:timeout], options.fetch(:fail_fast, true))
        end
      end

      private_class_method :new

      # @param timeout [Numeric, nil]
      # @param fail_fast [Boolean]
      def initialize(timeout, fail_fast)
        @timeout = timeout
        @fail_fast = fail_fast
        freeze
      end
    end
  end
end
