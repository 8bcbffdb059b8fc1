# frozen_string_literal: true

module Heddle
  module Bench
    # The first screen's warning when a run's load average exceeded the
    # machine's cores (other work, or the bench's own forks, shared the CPU),
    # naming the rows of that screen it may have moved: those whose trials
    # spread widely, and, when the run recorded each trial's load, had a
    # trial under that load.
    class LoadNote
      # Trials whose slowest is this many times their fastest spread "widely".
      SPREAD = 1.5
      # How many of those rows the note names, widest first.
      NAMED = 3

      # @param findings [Findings]
      def initialize(findings)
        @findings = findings
        @results = findings.results
        @cores = @results.environment["cores"].to_i
      end

      # @return [Float, nil] the highest 1-minute load average seen: before, after, or as a trial started
      def peak
        env = @results.environment
        loads = [env["load_average_before"], env["load_average_after"]].map { |l| Array(l).first } +
                @results.records.map { |r| r["load"] }
        loads.compact.max
      end

      # @return [Boolean] whether the load exceeded the cores
      def exceeded? = @cores.positive? && peak.to_f > @cores

      # @return [Array<RowSummary>] the first screen's rows the load may have moved, widest spread first
      def rows
        first_screen_rows.select { |row| row.stats.n > 1 && spread(row) >= SPREAD && loaded?(row) }
                         .sort_by { |row| -spread(row) }
      end

      # @return [String, nil] the note (nil when the load stayed within the cores)
      def text
        return nil unless exceeded?

        env = @results.environment
        head = format("Load: the 1-minute load average reached %<peak>.1f (before %<before>s, after %<after>s) on " \
                      "%<cores>d cores: other work shared the CPU.",
                      peak: peak, before: Array(env["load_average_before"]).first || "?",
                      after: Array(env["load_average_after"]).first || "?", cores: @cores)
        "#{head} #{moved}"
      end

      private

      def moved
        if rows.empty?
          return "Its rows on this screen have one trial each: no spread to tell which the load moved." if
            first_screen_rows.all? { |row| row.stats.n < 2 }

          return "No row on this screen spread #{SPREAD}× or more between its trials."
        end

        named = rows.first(NAMED).map { |row| format("%<name>s (%<spread>.1f×)", name: row.name, spread: spread(row)) }
        count = rows.size == 1 ? "the 1 row" : "the #{rows.size} rows"
        "It may have moved #{count} of this screen whose slowest trial took #{SPREAD}× the fastest or more, " \
          "widest: #{named.join(', ')}; rerun on a quiet machine before trusting their ties and ratios."
      end

      def first_screen_rows
        answers = @findings.answers.flat_map { |a| a.items.flat_map { |i| [i.row, i.other] } }
        table = @findings.backend_table.columns.flat_map { |c| [*c.cells.values, c.scale] }
        (answers + table).compact.select(&:measured?).uniq(&:object_id)
      end

      def spread(row) = row.stats.max / row.stats.min

      # Without per-trial loads (runs before they were recorded) every row may have been moved.
      def loaded?(row)
        loads = row.ok.map { |r| r["load"] }.compact
        loads.empty? || loads.max > @cores
      end
    end
  end
end
