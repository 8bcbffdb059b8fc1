# frozen_string_literal: true

require_relative "../error"

module Heddle
  module Workers
    # The base of every error the worker machinery raises on its own account
    # (a dead worker, a value that cannot cross to or from a worker, a block a
    # ractor cannot run, a timeout). Errors raised by the user's block are
    # re-raised as themselves instead, extended with {PartialResults}.
    #
    # It carries the item concerned and the results completed so far, so a
    # failed map never loses finished work.
    class Error < Heddle::Error
      # @return [Object, nil] the item being handled when the error happened
      attr_accessor :item
      # @return [Integer, nil] that item's index in the input
      attr_accessor :index
      # @return [Array, nil] results in input order; nil where no result was completed
      attr_accessor :results

      # @param message [String]
      # @param item [Object] the item concerned
      # @param index [Integer, nil] its index in the input
      def initialize(message = nil, item: nil, index: nil)
        super(message)
        @item = item
        @index = index
      end
    end

    # A worker process or ractor died (killed, segfault, `exit!`) while
    # handling {#item}. The pool has already replaced it.
    class WorkerDiedError < Error; end

    # An item, result or exception could not be copied between the caller and
    # a worker (Marshal for processes, copying for ractors).
    class UnmarshalableError < Error; end

    # The block cannot run inside a ractor (it is not shareable: its self or a
    # captured variable is not shareable).
    class NotShareableError < Error; end

    # An item (`item_timeout:`) or a whole map (`timeout:`) took too long.
    class TimeoutError < Error
      include Heddle::TimeoutError
    end

    # The item never ran: an earlier item failed (`fail_fast: true`) or the
    # pool was shut down.
    class CancelledError < Error; end

    # Raised by a map with `fail_fast: false` when any item failed: every
    # failed item's error by index, and every completed result.
    class Errors < Error
      # @return [Hash{Integer => Exception}] each failed item's error, by index
      attr_reader :errors

      # @param errors [Hash{Integer => Exception}]
      # @param results [Array]
      def initialize(errors, results)
        first_index, first = errors.min_by(&:first)
        super("#{errors.size} of #{results.size} items failed; the first, index #{first_index}: " \
              "#{first.class}: #{first.message}", index: first_index)
        @errors = errors
        self.results = results
      end
    end

    # Mixed into an exception raised by the user's block when a map re-raises
    # it (its class, message and backtrace unchanged), so that the completed
    # results and the failing item stay reachable.
    #
    # Where Ruby has Exception#detailed_message (3.2+), the report of an
    # error that ends the program names the item and its index: "item
    # \"bad\" (index 3): bad item (ArgumentError)"; #message stays the
    # block's own.
    module PartialResults
      # Characters of the item's inspect a report shows at most.
      ITEM_INSPECT = 60

      # @return [Array] results in input order; nil where no result was completed
      attr_accessor :results
      # @return [Object] the item whose handler raised
      attr_accessor :item
      # @return [Integer] that item's index in the input
      attr_accessor :index

      # @return [String, nil] "item \"bad\" (index 1)": a short inspect of
      #   the item, then its index in the input (as heddle's own errors name
      #   an item: a bare number beside the value read like an off-by-one);
      #   nil when the error is not one item's
      # @example
      #   Heddle.map(%w[a bad]) { |x| raise "no" if x == "bad" }
      # rescue => e
      #   e.item_label # => "item \"bad\" (index 1)"
      def item_label
        return nil unless index

        "item #{PartialResults.short_inspect(item)} (index #{index})"
      end

      if Exception.method_defined?(:detailed_message)
        # The message as Ruby reports an uncaught error, with {#item_label} first.
        # @return [String]
        def detailed_message(highlight: false, **)
          label = item_label
          label ? "#{label}: #{super}" : super
        end
      end

      # @param item [Object]
      # @return [String] item.inspect, cut to {ITEM_INSPECT} characters
      def self.short_inspect(item)
        text = item.inspect
        text.length > ITEM_INSPECT ? "#{text[0, ITEM_INSPECT - 3]}..." : text
      rescue StandardError => e # an inspect that raises must not hide the item's own error
        "#<#{item.class} (inspect raised #{e.class})>"
      end
    end
  end
end
