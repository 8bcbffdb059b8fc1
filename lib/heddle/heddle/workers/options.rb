# frozen_string_literal: true

require_relative "backends"

module Heddle
  module Workers
    # The checks every workers entry point ({Heddle.map}, {Heddle.each},
    # {Heddle::Pool.new}, {Heddle::Pool#map}, ...) makes at the door, before it
    # starts a worker or reads an item: a bad argument raises ArgumentError
    # (a value out of range) or TypeError (a value of the wrong kind) naming
    # the parameter and the value, and leaves everything as it was.
    module Options
      module_function

      # @param worker [Object]
      # @return [Symbol] worker
      # @raise [ArgumentError] unless one of {Backends::NAMES}
      def worker!(worker)
        return worker if Backends.include?(worker)

        raise ArgumentError, "unknown worker #{describe(worker)}; " \
                             "use one of #{Backends::NAMES.map(&:inspect).join(', ')}"
      end

      # @param size [Object]
      # @param worker [Symbol] the kind, whose max_size ({Backends::LIST}) bounds size
      # @return [Integer, nil] size
      # @raise [ArgumentError] unless nil or a positive Integer at most the kind's max_size
      def size!(size, worker = nil)
        unless nil.equal?(size) || (Integer === size && size.positive?) # rubocop:disable Style/CaseEquality -- a BasicObject has no is_a?
          raise ArgumentError, "size must be a positive Integer (or nil for the default), got #{describe(size)}"
        end
        return size if nil.equal?(size) || size <= (max = Backends.max_size(worker))

        raise ArgumentError, "size: #{size} is more #{worker || 'worker'} workers than a pool may have (at most " \
                             "#{max}); a map never starts more workers than it has items"
      end

      # A duration in seconds: nil or Float::INFINITY mean no limit.
      # @param name [Symbol] the keyword, for the message
      # @param value [Object]
      # @return [Numeric, nil] the seconds, nil for no limit
      # @raise [TypeError] unless nil or a real number
      # @raise [ArgumentError] for NaN, zero or a negative number
      def seconds!(name, value)
        Seconds.check!(value, "#{name}:", :positive, no_limit: "nil or Float::INFINITY") unless nil.equal?(value)
      end

      # @param name [Symbol] the keyword, for the message
      # @param value [Object]
      # @return [Boolean] value
      # @raise [TypeError] unless true or false
      def boolean!(name, value)
        return value if value == true || value == false # rubocop:disable Style/MultipleComparison -- exactly these two

        raise TypeError, "#{name}: must be true or false, got #{describe(value)}"
      end

      # @param items [Object]
      # @return [Object] items, unread
      # @raise [TypeError] unless an Enumerable (or an Array-like object)
      def items!(items)
        return items if Enumerable === items || (Kernel === items && items.respond_to?(:to_ary)) # rubocop:disable Style/CaseEquality -- a BasicObject has no is_a?

        raise TypeError, "items must be an Enumerable (an Array, a Range, an Enumerator, ...), got #{describe(items)}"
      end

      # @param block [Proc, nil]
      # @param call [String] how the call looks with a block, for the message
      # @return [Proc] block
      # @raise [ArgumentError] without one
      def block!(block, call)
        return block if block

        raise ArgumentError, "a block is required: #{call} { |item| ... }"
      end

      # @param value [Object]
      # @return [String] the value and its class, bounded
      def describe(value) = "#{Error.describe(value)} (#{Error.class_of(value)})"
    end
  end
end
