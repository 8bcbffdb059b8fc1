# frozen_string_literal: true

module Heddle
  module Bench
    # The long-lived child processes of a run, one per (suite, isolation
    # group, Ruby variant): the isolated trials of a group go to its child in
    # the plan's random order, so the order across rows stays as shuffled
    # while each group pays for one `ruby` start instead of one per trial.
    # Idle children wait on their stdin; past {MAX_ALIVE} the least recently
    # used one is ended (it is started again if its group comes back).
    class TrialPool
      # Idle children kept: each holds a loaded ruby (30–100 MB here) and
      # waits on its stdin without CPU. A default run interleaves 7 groups
      # (18 with --both); fewer kept would restart children (~0.7 s each
      # and a fresh warm-up) all through the shuffled order.
      MAX_ALIVE = 16

      def initialize
        @processes = {}
      end

      # Runs one trial in the child of its group, starting the child if needed.
      #
      # @param key [Array] (suite, isolation group, variant)
      # @param variant [String] "yjit" or "no-yjit"
      # @param spec [Hash] the trial, as {TrialServer} reads it
      # @param limit [Float] the trial's time limit in seconds
      # @return [Hash, String] the record, or why there is none
      def call(key, variant, spec, limit)
        process = @processes.delete(key)
        process = TrialProcess.new(variant) unless process&.alive?
        @processes[key] = process
        trim
        process.call(spec, limit)
      end

      # Ends every child.
      #
      # @return [void]
      def close
        @processes.each_value(&:close)
        @processes.clear
      end

      private

      def trim
        @processes.delete(@processes.keys.first).close while @processes.size > MAX_ALIVE
      end
    end
  end
end
