# frozen_string_literal: true

module Heddle
  class EventLoop
    module Selectors
      # Loads nio4r once, on first use, and tells whether its C extension
      # is there ({NIOWatch} extends it).
      module NIOLoader
        # @return [Boolean] whether nio4r's C extension loads (its pure-Ruby
        #   engine is IO.select underneath, slower than {SelectWatch})
        # @example
        #   Heddle::EventLoop::Selectors::NIOWatch.available? # => true
        def available?
          return @available unless @available.nil?

          require "nio"
          @load_error = "nio4r's engine is #{NIO::ENGINE}, not libev" unless NIO::ENGINE == "libev"
          @available = @load_error.nil?
        rescue LoadError => e
          @load_error = e.message
          @available = false
        end

        # @return [String, nil] why nio4r is not available
        attr_reader :load_error
      end
    end
  end
end
