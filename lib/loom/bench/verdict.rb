# frozen_string_literal: true

module Loom
  module Bench
    # Where loom wins and where it loses: each loom row against the best peer
    # row of its compare group. A difference whose min–max ranges overlap is
    # called "within noise" rather than a win or a loss.
    Verdict = Struct.new(:row, :peer, :ratio, keyword_init: true) do
      # @param summaries [Array<RowSummary>] all rows of a run
      # @return [Array<Verdict>] one per measured loom row that has a peer
      def self.all(summaries)
        summaries.select { |s| s.loom? && s.measured? }.filter_map do |row|
          peer = row.best_peer(summaries)
          new(row: row, peer: peer, ratio: row.speed / peer.speed) if peer
        end
      end

      # The same ratio in executions per CPU-second of the process (rate rows
      # only: a duration's CPU hides the work of other processes and threads
      # waiting). On a shared machine it moves less than the wall-clock ratio.
      #
      # @return [Float, nil]
      def cpu_ratio
        return nil unless row.rate?

        mine = row.cpu_stats.median
        theirs = peer.cpu_stats.median
        mine && theirs&.positive? ? mine / theirs : nil
      end

      # @return [String] "wins", "loses", "within noise", or "unsure" when a
      #   side has a single trial (no spread to judge the noise by)
      def outcome
        return "unsure (1 trial)" if [row, peer].any? { |s| s.stats.n < 2 }
        return "within noise" if row.overlaps?(peer)

        ratio > 1 ? "wins" : "loses"
      end

      # @return [String] e.g. "wins: 1.25× faster"
      def to_s = "#{outcome}: #{Format.ratio(ratio)}"
    end
  end
end
