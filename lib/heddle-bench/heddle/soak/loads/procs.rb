# frozen_string_literal: true

require_relative "../load"

module Heddle
  module Soak
    module Loads
      # Concurrent procs under Heddle.run: many short ones with random waits,
      # an await that times out (and its proc concluded), and a resume
      # that never comes.
      class Procs < Load
        # Procs started per round.
        COUNT = 30

        def name = :procs

        # @param random [Random]
        def round(random)
          Heddle.run do
            waits = Array.new(COUNT) { random.rand(0.002) }
            evaluations = waits.each_with_index.map do |wait, i|
              Heddle.concurrently(i, wait) do |n, w|
                Heddle.wait(w) && (n * 3)
              end
            end
            check Array.new(COUNT) { |n| n * 3 }, evaluations.map(&:await_result), "results of #{COUNT} procs"
            check :timed_out, overrun, "await_result(within:) of a proc that overruns"
            check :nothing, Heddle.await_resume!(within: 0.001, timeout_result: :nothing),
                  "await_resume! nobody resumes"
          end
        end

        private

        def overrun
          slow = Heddle.concurrently { Heddle.wait(5) && :late }
          slow.await_result(within: 0.002)
        rescue Heddle::Evaluation::TimeoutError
          :timed_out
        ensure
          slow&.conclude_to(:cancelled) unless slow&.concluded?
        end
      end
    end
  end
end
