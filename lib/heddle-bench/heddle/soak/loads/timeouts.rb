# frozen_string_literal: true

require "timeout"
require_relative "../load"

module Heddle
  module Soak
    module Loads
      # Timeout.timeout inside Heddle.run while short procs keep starting
      # (the first crash a soak found): each expires on a queue nobody fills, and
      # one that does not expire returns its value.
      class Timeouts < Load
        # Timeouts per round.
        COUNT = 20

        def name = :timeouts

        # @param random [Random]
        def round(random)
          Heddle.run do
            queue = Thread::Queue.new
            busy = true
            spinner = Heddle.concurrently { spin(random) { busy } }
            check COUNT, Array.new(COUNT) {
              expires?(queue)
            }.count(true), "Timeout.timeout(0.002) { queue.pop } expired"
            check :done, Timeout.timeout(5) { Heddle.wait(0.001) && :done }, "a Timeout.timeout that does not expire"
            busy = false
            spinner.await_result
          end
        end

        private

        def spin(random)
          while yield
            Heddle.concurrently { sleep(random.rand(0.004)) }
            sleep 0.0001
          end
        end

        def expires?(queue)
          Timeout.timeout(0.002) { queue.pop }
          false
        rescue Timeout::Error
          true
        end
      end
    end
  end
end
