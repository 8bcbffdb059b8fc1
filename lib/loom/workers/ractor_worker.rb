# frozen_string_literal: true

module Loom
  module Workers
    # The loop a worker ractor runs. It touches only its arguments and
    # constants (a ractor cannot read the main ractor's state): receive a
    # chunk, run the handler on each item, send the chunk's results at once
    # (one hand-over per chunk, not per item) to the main ractor, tagged with
    # the worker's token so {RactorBackend}'s collector can route them.
    #
    # Results go by `Ractor.main.send`, not `Ractor.yield`: on Ruby 3.1 two
    # threads of one ractor taking from two ractors at once get each other's
    # values (the wait state is per ractor), which mixed up results.
    module RactorWorker
      module_function

      # @param token [Integer] the worker's address at the collector
      # @param handler [Proc] shareable
      # @param item_timeout [Numeric, nil]
      # @return [void]
      def run(token, handler, item_timeout)
        loop do
          message = Ractor.receive
          break if message == :stop

          fail_fast, items = message
          hand_over(token, run_chunk(handler, items, fail_fast, item_timeout))
        end
        Ractor.main.send([token, [:stopped]])
      rescue Exception => e # rubocop:disable Lint/RescueException -- the lane must hear of any end
        Ractor.main.send([token, [:crashed, "#{e.class}: #{e.message}"]])
      end

      def run_chunk(handler, items, fail_fast, item_timeout)
        items.each_with_object([]) do |item, results|
          results << outcome(handler, item, item_timeout)
          break results if results.last.first == :raised && fail_fast
        end
      end

      # @return [Array(Symbol, Object)] [:ok, value] or [:raised, error]
      def outcome(handler, item, item_timeout)
        [:ok, call(handler, item, item_timeout)]
      rescue Exception => e # rubocop:disable Lint/RescueException -- every error of the block goes back
        [:raised, e]
      end

      def call(handler, item, item_timeout)
        return handler.call(item) unless item_timeout

        message = "item #{Error.describe(item)} took longer than #{item_timeout} s"
        Timeout.timeout(item_timeout, TimeoutError, message) { handler.call(item) }
      end

      # Sends all results at once; if one cannot be copied out of the
      # ractor, sends them with those that cannot replaced by errors.
      def hand_over(token, results)
        Ractor.main.send([token, [:results, results]])
      rescue StandardError
        Ractor.main.send([token, [:results, results.map { |result| copyable(result) }]])
      end

      def copyable(result)
        Ractor.make_shareable(result, copy: true)
      rescue StandardError => e
        [:raised, UnmarshalableError.new("a #{result.last.class} cannot be copied out of a worker ractor: " \
                                         "#{e.message}; return plain data")]
      end
    end
  end
end
