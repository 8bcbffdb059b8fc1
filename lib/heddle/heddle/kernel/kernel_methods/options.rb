# frozen_string_literal: true

module Heddle
  # Helpers for the opt-in Kernel and IO methods ("heddle/kernel").
  module KernelMethods
    # Concurrently's methods take their options as a positional Hash
    # (`await_resume!(within: 1)` and `await_resume!(opts)` both occur in
    # code written for it); heddle's take keywords. This merges both forms.
    module Options
      # @param opts [Hash, nil] positional options
      # @param keywords [Hash] keyword options
      # @return [Hash] the options as keywords
      # @raise [TypeError] when +opts+ is not a Hash
      def self.merge(opts, keywords)
        return keywords unless opts
        raise TypeError, "options must be a Hash like {within: 1}, got #{opts.inspect}" unless opts.is_a?(Hash)

        keywords.empty? ? opts : opts.merge(keywords)
      end
    end
  end
end
