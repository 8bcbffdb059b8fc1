# frozen_string_literal: true

require_relative "../load"

module Heddle
  module Soak
    module Loads
      # Promises across threads: resolved by one thread, awaited by fibers
      # under Heddle.run and by another thread; a rejection, and waits that
      # time out.
      class Promises < Load
        COUNT = 10

        def name = :promises

        # @param _random [Random]
        def round(_random)
          Heddle.run { across_threads }
          check KeyError, rejected, "a rejection from another thread"
          check [nil, false], [Heddle::Promise.new.value(0.001), Heddle::Promise.new.wait(0.001)], "waits that time out"
        end

        private

        def across_threads
          promises = Array.new(COUNT) { Heddle::Promise.new }
          expected = Array.new(COUNT) { |i| i * i }
          fibers = promises.map { |promise| Heddle.concurrently { promise.value!(30) } }
          thread = Thread.new { promises.map { |promise| promise.value!(30) } }
          Thread.new { promises.each_with_index { |promise, i| promise.fulfill(i * i) } }.join
          check expected, fibers.map(&:await_result), "values awaited by fibers"
          check expected, thread.value, "values awaited by a thread"
        end

        def rejected
          promise = Heddle::Promise.new
          Thread.new { promise.reject(KeyError.new("rejected")) }.join
          promise.value!
        rescue KeyError => e
          e.class
        end
      end
    end
  end
end
