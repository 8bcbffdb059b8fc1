# frozen_string_literal: true

module Heddle
  class Proc
    class Evaluation < Heddle::Evaluation
      # Data kept on an evaluation (Concurrently's Evaluation#[] and #[]=),
      # in a Hash allocated on first store (in the evaluation's Extras).
      module Store
        # @param key [Object]
        # @return [Object] the value stored under +key+
        def [](key)
          data = @extras&.data
          data && data[key]
        end

        # @param key [Object]
        # @param value [Object]
        # @return [Object] value
        def []=(key, value)
          extras = (@extras ||= Extras.new)
          (extras.data ||= {})[key] = value
        end

        # @param key [Object]
        # @return [Boolean]
        def key?(key)
          data = @extras&.data
          data ? data.key?(key) : false
        end

        # @return [Array] the keys stored
        def keys
          data = @extras&.data
          data ? data.keys : []
        end
      end
    end
  end
end
