# frozen_string_literal: true

module Heddle
  module Bench
    # The first screen's warning when other programs took a meaningful share
    # of the machine's CPU while the run measured ({CpuSampler}: the run's
    # process tree against the machine, trial by trial), naming the rows of
    # that screen it may have moved: those whose trials spread widely and had
    # a trial while other work ran. The run's own load (a row with a thousand
    # runnable threads) is no cause for a warning, so the load average, which
    # counts both, no longer raises one; a run recorded before the CPU was
    # sampled has no note.
    class LoadNote
      # Other work over the whole run at this share of the machine's CPU (all cores) or more is worth saying.
      OTHER_SHARE = 0.1
      # A trial during which other work took this share or more was measured on a busy machine.
      TRIAL_SHARE = 0.25
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

      # @return [Hash{String => Float}, nil] the run's shares of the machine's CPU, "own" and "other"
      def share = @results.environment["cpu_share"]

      # @return [Boolean] whether other work took a meaningful share, over the run or under a row of the screen
      def exceeded? = share.to_h.fetch("other", 0) >= OTHER_SHARE || rows.any?

      # @return [Array<RowSummary>] the first screen's rows other work may have moved, widest spread first
      def rows
        first_screen_rows.select { |row| row.stats.n > 1 && spread(row) >= SPREAD && busy?(row) }
                         .sort_by { |row| -spread(row) }
      end

      # @return [String, nil] the note (nil when other work stayed below its share)
      def text
        return nil unless exceeded?

        "#{head} #{moved}"
      end

      private

      def head
        own, other = share.to_h.values_at("own", "other")
        return "Other programs on this machine took a share of its CPU while some trials ran." unless other

        format("Other programs on this machine took %<other>d%% of its %<cores>d cores' time while the run " \
               "measured (the run itself: %<own>d%%).", other: (other * 100).round, own: (own.to_f * 100).round,
                                                        cores: @cores)
      end

      def moved
        if rows.empty?
          return "Its rows on this screen have one trial each: no spread to tell which it moved." if
            first_screen_rows.all? { |row| row.stats.n < 2 }

          return "No row on this screen spread #{SPREAD}× or more between its trials while it ran."
        end

        named = rows.first(NAMED).map { |row| format("%<name>s (%<spread>.1f×)", name: row.name, spread: spread(row)) }
        count = rows.size == 1 ? "the 1 row" : "the #{rows.size} rows"
        "It may have moved #{count} of this screen whose slowest trial took #{SPREAD}× the fastest or more, " \
          "widest: #{named.join(', ')}; rerun on a quiet machine before trusting their ties and ratios."
      end

      def first_screen_rows
        @first_screen_rows ||= begin
          answers = @findings.answers.flat_map { |a| a.items.flat_map { |i| [i.row, i.other] } }
          table = @findings.backend_table.columns.flat_map { |c| [*c.cells.values, c.scale] }
          (answers + table).compact.select(&:measured?).uniq(&:object_id)
        end
      end

      def spread(row) = row.stats.max / row.stats.min

      # A row had a trial during which other work took TRIAL_SHARE or more of the machine.
      def busy?(row) = row.ok.any? { |r| r.dig("cpu", "other").to_f >= TRIAL_SHARE }
    end
  end
end
