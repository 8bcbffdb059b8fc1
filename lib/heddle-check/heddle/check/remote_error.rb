# frozen_string_literal: true

module Heddle
  module Check
    # Stands in for an error raised by a property in another process when the
    # error itself cannot be marshaled (it holds a Proc, an IO, ...): keeps its
    # class name, message and backtrace so the failure report stays useful.
    class RemoteError < StandardError
      # @return [String] the name of the original error's class
      attr_reader :remote_class

      # @param remote_class [String] the original class name
      # @param message [String] the original message
      # @param backtrace [Array<String>, nil] the original backtrace
      def initialize(remote_class, message, backtrace)
        super(message)
        @remote_class = remote_class
        set_backtrace(backtrace) if backtrace
      end

      # @return [String] "Class: message", as the original would read
      def inspect = "#<#{remote_class}: #{message}>"

      # Returns the error if it survives Marshal, else a RemoteError copy.
      #
      # @param error [Exception]
      # @return [Exception]
      def self.portable(error)
        Marshal.dump(error)
        error
      rescue TypeError, ArgumentError
        new(error.class.name, error.message, error.backtrace)
      end
    end
  end
end
