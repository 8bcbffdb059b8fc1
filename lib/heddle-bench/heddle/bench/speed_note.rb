# frozen_string_literal: true

module Heddle
  module Bench
    # The first screen's warning when the run's trial processes ran at
    # different speeds ({ProcessSpeed}: ns per Fiber resume+yield, recorded
    # by every isolated trial). The same code then runs slower in some
    # processes than in others, so two rows measured in different processes
    # can read that much off against each other. It names the first
    # screen's comparisons whose two rows ran at the most different speeds.
    # A run recorded before the speed was has no note.
    class SpeedNote
      # The slowest process at this many times the fastest ran at another speed.
      SPLIT = 1.25
      # How many comparisons the note names, most apart first.
      NAMED = 3

      # @param findings [Findings]
      def initialize(findings)
        @findings = findings
      end

      # @return [Array<Float>] every ok isolated trial's process speed, ns
      def speeds
        @speeds ||= @findings.results.records.filter_map { |r| r["process_speed_ns"] if r["status"] == "ok" }
      end

      # @return [Boolean] whether the trial processes ran at different speeds
      def split? = speeds.size > 1 && speeds.max / speeds.min >= SPLIT

      # @return [Array<Array(RowSummary, RowSummary, Float)>] the first screen's
      #   comparisons whose rows' processes differed by SPLIT or more (median
      #   against median), with that factor, most apart first
      def pairs
        @pairs ||= first_screen_pairs.filter_map { |row, other| apart(row, other) }.sort_by { |_, _, factor| -factor }
      end

      # @return [String, nil] the note (nil when the processes ran at one speed)
      def text
        return nil unless split?

        format("Trial processes ran at different speeds: a fiber switch took %<min>d–%<max>d ns from one " \
               "process to another (%<factor>.1f×), the same code. %<named>s",
               min: speeds.min.round, max: speeds.max.round, factor: speeds.max / speeds.min, named: named)
      end

      private

      def named
        return "No comparison on this screen had its two rows in processes that far apart." if pairs.empty?

        listed = pairs.first(NAMED).map do |row, other, factor|
          format("%<row>s vs %<other>s (%<factor>.1f×)", row: row.name, other: other.name, factor: factor)
        end
        "Compared rows whose processes differed most may read that much off: #{listed.join(', ')}; " \
          "rerun them before trusting their ratios."
      end

      def first_screen_pairs
        compared = @findings.answers.flat_map(&:items).map { |item| [item.row, item.other] }
        compared.select { |pair| measured?(pair) }.uniq { |pair| pair.map(&:object_id) }
      end

      def measured?(pair) = pair.all? { |row| row&.measured? }

      # [row, other, factor] when their processes' median speeds differ by SPLIT or more
      def apart(row, other)
        a = median_speed(row)
        b = median_speed(other)
        return nil unless a && b

        factor = [a, b].max / [a, b].min
        [row, other, factor] if factor >= SPLIT
      end

      def median_speed(row)
        values = row.ok.filter_map { |r| r["process_speed_ns"] }.sort
        values.empty? ? nil : values[values.size / 2]
      end
    end
  end
end
