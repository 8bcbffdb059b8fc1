# frozen_string_literal: true

module Heddle
  module Bench
    # "Which backend for which job": heddle's backends (rows) against the jobs
    # the suites declared with {Presentation#backends} (columns, named by the
    # job: tiny items, CPU-heavy items, waiting on IO, then any other job),
    # each cell the row's median under the run's primary variant, and plain
    # Ruby's row for scale. A column's ★ goes to a backend only when it beats
    # every other backend beyond noise ({Verdict.outcome}: the min–max ranges
    # do not overlap); otherwise the backends no other beats are a tie. So
    # the advice does not flip when two runs of one machine differ by noise.
    class BackendTable
      # Jobs in the order of the table's columns; others follow.
      JOBS = %w[trivial CPU-heavy IO-bound].freeze
      # Marks the backend that beats every other beyond noise.
      BEST = "★"
      # The row of plain Ruby doing the job, for scale.
      SCALE = "plain Ruby (map)"

      # One column: a job measured by one suite's rows.
      # smoke: the run was a smoke run (`--quick`), which judges nothing.
      Column = Struct.new(:job, :title, :source, :anchor, :cells, :scale, :smoke, keyword_init: true) do
        # @return [Hash{String => RowSummary}] the backends measured in it
        def measured = cells.select { |_, row| row&.measured? }

        # @return [Array<String>] the backends no other beats beyond noise, in the table's order (one: the winner)
        def leaders
          @leaders ||= measured.reject { |_, row| measured.any? { |_, other| Verdict.outcome(other, row) == "wins" } }
                               .keys
        end

        # @return [Boolean] whether a measured backend has a single trial (no spread to judge the noise by)
        def unsure? = measured.any? { |_, row| row.stats.n < 2 }

        # @return [Boolean] whether the column can name a winner or a tie
        def judged? = measured.size > 1 && !unsure?

        # @return [String, nil] the backend that beats every other beyond noise (nil: a tie, or not judged)
        def winner = judged? && leaders.size == 1 ? leaders.first : nil

        # @return [Array<String>] the tied backends (empty when there is a winner, or not judged)
        def tied = winner || !judged? ? [] : leaders

        # @return [String] "★ ractor", "tie: inline, thread", "smoke run: not judged", "not judged: 1 trial",
        #   "one backend measured" or "not measured"
        def verdict
          return "★ #{winner}" if winner
          return "tie: #{tied.join(', ')}" unless tied.empty?
          return smoke ? Answer::SMOKE : "not judged: 1 trial" if unsure? && measured.size > 1

          measured.empty? ? "not measured" : "one backend measured"
        end

        # @return [RowSummary, nil] the fastest leader (or, unjudged, the fastest median), which the others'
        #   "(n×)" are against
        def reference = (judged? ? leaders.map { |b| cells[b] } : measured.values).max_by(&:speed)

        # @return [String] the column's unit of seconds ({Format.seconds_unit})
        def unit = Format.seconds_unit([*measured.values, scale].compact.select(&:measured?).map { |r| r.stats.median })
      end

      # @param findings [Findings]
      def initialize(findings)
        @findings = findings
        @variant = findings.primary_variant
      end

      # @return [Array<Column>] in job order, then in the run's suite order
      def columns
        @columns ||= declared.sort_by.with_index { |(_, spec), i| [JOBS.index(spec["job"]) || JOBS.size, i] }
                             .map { |suite, spec| column(suite, spec) }
      end

      # @return [Boolean] whether no suite declared a column
      def empty? = columns.empty?

      # @return [Array<String>] the table's rows: the backends some column measured, in {Presentation::BACKENDS}
      #   order
      def backends = Presentation::BACKENDS.select { |b| columns.any? { |c| c.cells.key?(b) } }

      # @return [Boolean] whether some column has plain Ruby's row for scale
      def scale? = columns.any?(&:scale)

      # @param column [Column]
      # @param backend [String]
      # @return [String] "42.0 ms ★", "44.1 ms (tie)", "331 ms (7.9×)" (times the fastest's time), "failed" or "–"
      def cell(column, backend)
        row = column.cells[backend]
        return "–" unless row
        return "failed" unless row.measured?

        value = Format.value(row.stats.median, rate: row.rate?, unit: column.unit)
        return "#{value} #{BEST}" if column.winner == backend
        return "#{value} (tie)" if column.tied.include?(backend)

        "#{value} (#{times(column, row)})"
      end

      # @param column [Column]
      # @return [String] plain Ruby's cell: its median and its times the fastest backend's, or "–"
      def scale_cell(column)
        row = column.scale
        return "–" unless row&.measured?

        value = Format.value(row.stats.median, rate: row.rate?, unit: column.unit)
        column.reference ? "#{value} (#{times(column, row)})" : value
      end

      # @param column [Column] @param backend [String]
      # @return [String] the cell's class for the colour rule: "best", "tie", "behind" or "none"
      def css(column, backend)
        return "best" if column.winner == backend
        return "tie" if column.tied.include?(backend)

        column.cells[backend]&.measured? ? "behind" : "none"
      end

      # @return [String] how to read the cells
      def legend
        "Medians under #{@variant}, heddle's backends; #{BEST}: beats every other backend beyond noise (the " \
          "min–max ranges of the trials do not overlap); tie: no backend does, the tied ones are not beaten beyond " \
          "noise; (n×) = n times the fastest one's time; #{SCALE}: a plain `map` in one process, for scale, " \
          "never starred."
      end

      # @return [String] how each column was measured, e.g. "Measured by: 1,000 tiny items: a map on a warm pool; ..."
      def sources = "Measured by: #{columns.map { |c| "#{c.title}: #{c.source}" }.join('; ')}."

      private

      def times(column, row)
        ratio = column.reference.speed / row.speed
        ratio >= 1 ? format("%.1f×", ratio) : format("%.2f×", ratio)
      end

      def declared
        @findings.results.suites.values.flat_map { |suite| Array(suite["backends"]).map { |spec| [suite, spec] } }
      end

      def column(suite, spec)
        cells = spec.fetch("rows").transform_values { |name| summary(suite, name) }
        anchor = @findings.groups_of(suite["name"]).find { |g| g.rows.any? { |r| cells.values.include?(r) } }&.anchor
        Column.new(job: spec["job"], title: spec["title"] || spec["job"], source: spec["source"], anchor: anchor,
                   cells: cells, scale: spec["scale"] && summary(suite, spec["scale"]), smoke: @findings.smoke?)
      end

      def summary(suite, name)
        @findings.summaries.find { |s| s.suite_name == suite["name"] && s.name == name && s.variant == @variant }
      end
    end
  end
end
