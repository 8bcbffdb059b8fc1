# frozen_string_literal: true

module Heddle
  module Soak
    # The growth of each metric after the warm-up: from the first sample at
    # or after it (the baseline) to the median of the last three (one noisy
    # reading cannot fail the soak, a steady climb does). The warm-up can be
    # counted in rounds as well as seconds: what settles at start (RSS climbs
    # while the loads first reach their peaks) follows the work done, and a
    # slow machine does less of it in the same seconds.
    class Trend
      # @return [Sample, nil] the baseline, nil when no sample follows the warm-up
      attr_reader :baseline
      # @return [Hash{Symbol => Float}] metric => growth (0.05 is +5%)
      attr_reader :growth

      # @param samples [Array<Sample>]
      # @param warmup [Numeric] seconds
      # @param limit [Float] the largest growth allowed (0.10: 10%)
      # @param warmup_rounds [Integer] rounds the baseline also waits for
      def initialize(samples, warmup:, limit:, warmup_rounds: 0)
        @limit = limit
        after = samples.select { |sample| sample.seconds >= warmup && sample.rounds >= warmup_rounds }
        @baseline = after.first
        @last = after.last(3)
        @growth = @baseline ? Sample.metrics.to_h { |metric| [metric, growth_of(metric)] } : {}
      end

      # @return [Boolean] whether no metric grew beyond the limit
      def ok? = !@baseline.nil? && @growth.values.all? { |growth| growth <= @limit }

      # @return [Array<Symbol>] the metrics that grew beyond the limit
      def grown = @growth.select { |_, growth| growth > @limit }.keys

      # @return [String] one line: each metric's growth
      def to_s
        return "no sample after the warm-up: run longer than the warm-up" unless @baseline

        parts = @growth.map { |metric, growth| format("%<m>s %<g>+.1f%%", m: metric, g: growth * 100) }
        "trend from t=#{@baseline.seconds.round}s to the median of the last #{@last.size} samples: #{parts.join(', ')}"
      end

      private

      def growth_of(metric)
        base = @baseline[metric]
        now = @last.map(&metric).sort[@last.size / 2]
        return now.zero? ? 0.0 : Float::INFINITY if base.zero?

        (now - base).fdiv(base)
      end
    end
  end
end
