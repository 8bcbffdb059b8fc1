# frozen_string_literal: true

module Heddle
  module Bench
    # A comparison group of one run (declared with {Presentation#group}): the
    # summaries of its rows, under every Ruby variant measured, which of them
    # are floors, and which peer each heddle row meets. A heddle row's verdict is
    # against the fastest of its peers under the same variant; floors (plain
    # Ruby, a machine's limit) are never rivals.
    class Group
      attr_reader :suite, :name, :note, :rows

      # The group a suite gets when it declares none: all its rows, each heddle
      # row against the rows of its `compare:`.
      #
      # @param suite [Hash] the suite's description from the results
      # @return [Hash] a group declaration
      def self.whole_suite(suite)
        { "name" => suite["name"], "rows" => suite.fetch("rows").map { |r| r["name"] }, "floors" => [],
          "pairs" => nil, "note" => nil, "whole_suite" => true }
      end

      # @param suite [Hash] the suite's description from the results
      # @param spec [Hash] the group's declaration ("name", "rows", "floors", "pairs", "note")
      # @param summaries [Array<RowSummary>] the run's rows; the group keeps those it names, in its order
      def initialize(suite, spec, summaries)
        @suite = suite
        @name = spec.fetch("name")
        @note = spec["note"]
        @floors = spec.fetch("floors", [])
        @pairs = spec["pairs"]
        @whole_suite = spec["whole_suite"] || false
        by_name = summaries.select { |s| s.suite_name == suite["name"] }.group_by(&:name)
        @rows = spec.fetch("rows").flat_map { |n| by_name.fetch(n, []) }
      end

      # @return [Boolean] whether the group is the suite's only, implicit one
      def whole_suite? = @whole_suite

      # @return [String] the suite's name
      def suite_name = suite["name"]

      # @return [String] the HTML id of the group's chart
      def anchor = "group-#{suite_name}-#{name.downcase.gsub(/[^a-z0-9]+/, '-').gsub(/\A-|-\z/, '')}"

      # @param row [RowSummary] @return [Boolean] whether the row is one of the group's floors
      def floor?(row) = @floors.include?(row.name)

      # @param row [RowSummary]
      # @return [Array<RowSummary>] the measured rows doing the heddle row's job with the same resources
      def peers_of(row)
        return [] unless row.heddle?

        names = @pairs ? @pairs.fetch(row.name, []) : compare_peers(row)
        measured(names, row.variant)
      end

      # @param row [RowSummary] @return [RowSummary, nil] the fastest of its peers
      def best_peer(row) = peers_of(row).max_by(&:speed)

      # @param row [RowSummary] @return [RowSummary, nil] the first declared floor measured under its variant
      def floor_for(row) = measured(@floors, row.variant).first

      # @return [Array<Verdict>] one per measured heddle row that has a peer or a floor
      def verdicts
        @verdicts ||= rows.select { |r| r.heddle? && r.measured? }.filter_map do |row|
          peer = best_peer(row)
          floor = floor_for(row)
          Verdict.new(row: row, peer: peer, floor: floor, group: self) if peer || floor
        end
      end

      # @param row [RowSummary] @return [Verdict, nil]
      def verdict_for(row) = verdicts.find { |v| v.row.equal?(row) }

      # The row's name without the part every row of the group shares (the
      # job: "1,000 trivial items: "), for charts and answers.
      #
      # @param row [RowSummary]
      # @return [String]
      def short_name(row) = row.name.delete_prefix(common_prefix)

      private

      def compare_peers(row)
        return [] unless row.compare

        rows.select { |r| !r.heddle? && !floor?(r) && r.compare == row.compare }.map(&:name)
      end

      def measured(names, variant)
        names.filter_map { |n| rows.find { |r| r.name == n && r.variant == variant && r.measured? } }
      end

      # "job: " when every row's name starts with it (and one name is more than it).
      def common_prefix
        @common_prefix ||= begin
          heads = rows.map { |r| r.name[/\A[^:]+: /] }.uniq
          heads.size == 1 && heads.first ? heads.first : ""
        end
      end
    end
  end
end
