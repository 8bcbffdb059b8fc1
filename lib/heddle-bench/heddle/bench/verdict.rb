# frozen_string_literal: true

module Heddle
  module Bench
    # A heddle row against the fastest peer doing its job with the same
    # resources ({Group#best_peer}), and beside its group's floor. A
    # difference whose min–max ranges overlap is called "within noise" rather
    # than a win or a loss, and reported as a tie with the range of ratios its
    # trials allow; a row with no peer (only a floor, the baseline) has no
    # verdict word, only its ratio to the baseline.
    Verdict = Struct.new(:row, :peer, :floor, :group, keyword_init: true) do
      # The outcome when a side has one trial: no spread, so no call between a win, a loss and noise.
      const_set(:NOT_JUDGED, "not judged (1 trial)")

      # @param row [RowSummary] @param other [RowSummary]
      # @return [String] "wins", "loses", "within noise", or "not judged (1 trial)" when a side has a single
      #   trial (no spread to judge the noise by)
      def self.outcome(row, other)
        return Verdict::NOT_JUDGED if [row, other].any? { |s| s.stats.n < 2 }
        return "within noise" if row.overlaps?(other)

        row.speed > other.speed ? "wins" : "loses"
      end

      # How far apart two rows' speeds can be, trial for trial: from row's
      # slowest over other's fastest to row's fastest over other's slowest.
      #
      # @param row [RowSummary] @param other [RowSummary]
      # @return [Array(Float, Float)] the lowest and highest speed ratio
      def self.range(row, other)
        ends = ->(summary) { %i[min max].map { |end_| summary.stats.public_send(end_) } }
        ends.call(row).product(ends.call(other)).map { |a, b| row.rate? ? a / b : b / a }.minmax
      end

      # @param row [RowSummary] @param other [RowSummary] its rival or its baseline
      # @return [String] "tie (range 0.91–2.64×)": the two rows' trials overlap
      def self.tie(row, other)
        low, high = range(row, other)
        format("tie (range %<low>.2f–%<high>.2f×)", low: low, high: high)
      end

      # A heddle row beside its group's baseline (a floor: plain Ruby or a bare
      # primitive doing the job, for scale). A baseline beaten beyond noise is
      # no floor for that job; one beaten only by medians is the run's noise.
      #
      # @param row [RowSummary] @param floor [RowSummary] @param name [String] how to name the baseline
      # @return [String] "2.66× slower than plain map (the baseline)", "tie with plain map, the baseline (range
      #   0.80–1.30×)", or "1.84× faster than plain map: beyond noise, so the baseline is no floor for this job"
      def self.baseline_note(row, floor, name)
        ratio = row.speed / floor.speed
        case outcome(row, floor)
        when "wins" then "#{Format.ratio_than(ratio, name)}: beyond noise, so the baseline is no floor for this job"
        when "loses" then "#{Format.ratio_than(ratio, name)} (the baseline)"
        when "within noise" then tie_with_baseline(row, floor, name, ratio)
        else "#{Format.ratio_than(ratio, name)} (the baseline; one trial, no spread to judge the noise by)"
        end
      end

      # @param row [RowSummary] @param floor [RowSummary] @param name [String] @param ratio [Float] row over floor
      # @return [String] the baseline note of a tie
      def self.tie_with_baseline(row, floor, name, ratio)
        note = ratio > 1 ? "; its median beaten only within the run's noise" : ""
        "#{tie(row, floor).sub('tie', "tie with #{name}, the baseline")}#{note}"
      end

      # @return [Float, nil] heddle's speed over the peer's (> 1: heddle is faster)
      def ratio = peer && (row.speed / peer.speed)

      # @return [Float, nil] heddle's speed over the floor's
      def floor_ratio = floor && (row.speed / floor.speed)

      # The same ratio in executions per CPU-second of the process (rate rows
      # only: a duration's CPU hides the work of other processes and threads
      # waiting). On a shared machine it moves less than the wall-clock ratio.
      #
      # @return [Float, nil]
      def cpu_ratio
        return nil unless peer && row.rate?

        mine = row.cpu_stats.median
        theirs = peer.cpu_stats.median
        mine && theirs&.positive? ? mine / theirs : nil
      end

      # @return [String] see {.outcome}; "floor only" without a peer (only the baseline)
      def outcome = peer ? self.class.outcome(row, peer) : "floor only"

      # @return [String] e.g. "wins: 1.25× faster", "tie (range 0.91–1.40×)", or "1.09× slower than the
      #   baseline"
      def to_s
        return "#{Format.ratio(floor_ratio)} than the baseline" unless peer

        outcome == "within noise" ? self.class.tie(row, peer) : "#{outcome}: #{Format.ratio(ratio)}"
      end
    end
  end
end
