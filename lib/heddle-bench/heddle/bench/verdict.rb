# frozen_string_literal: true

module Heddle
  module Bench
    # A heddle row against the fastest peer doing its job with the same
    # resources ({Group#best_peer}), and beside its group's floor. A
    # difference whose min–max ranges overlap is called "within noise" rather
    # than a win or a loss; a row with no peer (only a floor) has no verdict
    # word, only its ratio to the floor.
    Verdict = Struct.new(:row, :peer, :floor, :group, keyword_init: true) do
      # @param row [RowSummary] @param other [RowSummary]
      # @return [String] "wins", "loses", "within noise", or "unsure (1 trial)" when a side has a single
      #   trial (no spread to judge the noise by)
      def self.outcome(row, other)
        return "unsure (1 trial)" if [row, other].any? { |s| s.stats.n < 2 }
        return "within noise" if row.overlaps?(other)

        row.speed > other.speed ? "wins" : "loses"
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

      # @return [String] see {.outcome}; "floor only" without a peer
      def outcome = peer ? self.class.outcome(row, peer) : "floor only"

      # @return [String] e.g. "wins: 1.25× faster", or "1.09× slower than the floor"
      def to_s = peer ? "#{outcome}: #{Format.ratio(ratio)}" : "#{Format.ratio(floor_ratio)} than the floor"
    end
  end
end
