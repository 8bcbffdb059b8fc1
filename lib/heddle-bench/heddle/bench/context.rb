# frozen_string_literal: true

module Heddle
  module Bench
    # What a row's blocks are told about the trial they run in. Passed as
    # `ctx` to setup, run, batch and teardown.
    class Context
      # Executions per call of a rate row's batch block (time is read once per batch).
      BATCH_SIZE = 100

      # @return [Hash{Symbol => Object}] the row's params
      attr_reader :params
      # @return [Float] the rate window in seconds
      attr_reader :seconds
      # @return [Integer] the trial number, 1-based
      attr_reader :trial
      # @return [String] the row's name
      attr_reader :row

      # @param row [String] the row's name
      # @param params [Hash] the row's params
      # @param seconds [Float] the rate window
      # @param quick [Boolean] true under --quick
      # @param trial [Integer] 1-based trial number
      def initialize(row: "", params: {}, seconds: 1.0, quick: false, trial: 1)
        @row = row
        @params = params
        @seconds = seconds
        @quick = quick
        @trial = trial
      end

      # @return [Integer] 100: what one call of the batch block must execute
      def batch_size
        BATCH_SIZE
      end

      # @return [Boolean] true under --quick: scale jobs down
      def quick?
        @quick
      end

      # @return [Boolean] whether YJIT runs this process
      def yjit?
        Environment.yjit?
      end
    end
  end
end
