# frozen_string_literal: true

module Heddle
  module Bench
    # What a run says, for every report: the rows' summaries, the comparison
    # groups the suites declared ({Group}), the verdicts inside them, the
    # first screen's answers ({Answer}) and the backend table
    # ({BackendTable}). Built from {Results} alone, so an old run re-renders.
    class Findings
      # How the reports name a library, when it is not its gem's name.
      LIBRARY_NAMES = { "ruby" => "plain Ruby", "concurrently" => "Concurrently", "parallel" => "Parallel",
                        "pbt" => "Pbt", "thread" => "the thread gem" }.freeze

      attr_reader :results, :summaries

      # @param results [Results]
      def initialize(results)
        @results = results
        @summaries = RowSummary.all(results)
      end

      # @return [Array<Group>] every suite's groups, in the run's suite order; rows a suite's groups leave
      #   out form an "Other rows" group, so every row is drawn somewhere
      def groups
        @groups ||= results.suites.values.flat_map { |suite| groups_of_suite(suite) }
      end

      # @param suite_name [String] @return [Array<Group>]
      def groups_of(suite_name) = groups.select { |g| g.suite_name == suite_name }

      # @return [Array<Verdict>] every heddle row's verdict (a row in two groups: its first group's)
      def verdicts = @verdicts ||= groups.flat_map(&:verdicts).uniq { |v| v.row.object_id }

      # @param row [RowSummary] @return [Verdict, nil]
      def verdict_for(row) = verdicts.find { |v| v.row.equal?(row) }

      # @return [String] the variant the first screen speaks for: YJIT when it was measured (users run
      #   Ruby 3.3+ with YJIT), else the only one
      def primary_variant
        variants = results.variants
        variants.include?("yjit") ? "yjit" : variants.first
      end

      # @return [Boolean] whether the run was a smoke run (`--quick`): one trial a row, nothing to judge by
      def smoke? = results.data.dig("options", "quick") == true

      # @return [Array<Answer>] the first screen's lines
      def answers = @answers ||= Answer.all(self)

      # @return [BackendTable]
      def backend_table = @backend_table ||= BackendTable.new(self)

      # @return [LoadNote]
      def load_note = @load_note ||= LoadNote.new(self)

      # @return [SpeedNote]
      def speed_note = @speed_note ||= SpeedNote.new(self)

      # @param suite_name [String]
      # @return [Hash{String => Array<Hash>}] row name => the seed's figures for it
      def references(suite_name)
        Array(results.suites.dig(suite_name, "references")).group_by { |r| r["row"] }
      end

      # @param library [String] @return [String] e.g. "Concurrently 1.2.0", "plain Ruby"
      def library_name(library)
        version = results.environment.dig("gems", library)
        [LIBRARY_NAMES.fetch(library, library), version].compact.join(" ")
      end

      # The "vs peer" column of the tables, before any escaping.
      #
      # @param row [RowSummary]
      # @return [String] "1.20× faster than async sleep 0", "tie with async sleep 0 (range 0.9–1.3×)",
      #   "baseline", "best peer" or "–"
      def peer_note(row)
        return "baseline" if groups.any? { |g| g.rows.include?(row) && g.floor?(row) }

        verdict = verdict_for(row)
        return verdict_note(verdict) if verdict
        return "best peer" if verdicts.any? { |v| v.peer.equal?(row) }

        "–"
      end

      private

      def verdict_note(verdict)
        peer = verdict.peer
        return Verdict.baseline_note(verdict.row, verdict.floor, verdict.floor.name) unless peer
        return Verdict.tie(verdict.row, peer).sub("tie", "tie with #{peer.name}") if verdict.outcome == "within noise"

        Format.ratio_than(verdict.ratio, peer.name)
      end

      def groups_of_suite(suite)
        specs = Array(suite["groups"])
        specs = [Group.whole_suite(suite)] if specs.empty?
        rest = suite.fetch("rows").map { |r| r["name"] } - specs.flat_map { |s| s["rows"] }
        specs += [{ "name" => "Other rows", "rows" => rest, "floors" => [] }] unless rest.empty?
        specs.map { |spec| Group.new(suite, spec, summaries) }.reject { |g| g.rows.empty? }
      end
    end
  end
end
