# frozen_string_literal: true

module Heddle
  module Bench
    # "Which backend for which job": heddle's backends (rows) against the jobs
    # the suites declared with {Presentation#backends} (columns: trivial,
    # CPU-heavy, IO-bound, then any other job), each cell the row's median
    # under the run's primary variant, the fastest of each column marked.
    class BackendTable
      # Jobs in the order of the table's columns; others follow.
      JOBS = %w[trivial CPU-heavy IO-bound].freeze
      # Marks the fastest backend of a column.
      FASTEST = "★"

      # One column: a job measured by one suite's rows.
      Column = Struct.new(:job, :source, :anchor, :cells, keyword_init: true) do
        # @return [String, nil] the backend with the highest speed
        def fastest = cells.select { |_, row| row&.measured? }.max_by { |_, row| row.speed }&.first
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

      # @return [Array<String>] the table's rows: the backends some column measured, in {Presentation::BACKENDS} order
      def backends = Presentation::BACKENDS.select { |b| columns.any? { |c| c.cells.key?(b) } }

      # @param column [Column]
      # @param backend [String]
      # @return [String] "42.00 ms ★", "331.00 ms (7.9×)" (times the fastest's time), "failed" or "–"
      def cell(column, backend)
        row = column.cells[backend]
        return "–" unless row
        return "failed" unless row.measured?

        value = Format.value(row.stats.median, rate: row.rate?)
        return "#{value} #{FASTEST}" if column.fastest == backend

        format("%<value>s (%<times>.1f×)", value: value, times: column.cells[column.fastest].speed / row.speed)
      end

      # @return [String] how to read the cells
      def legend
        "Medians under #{@variant}, heddle's rows only; #{FASTEST} the fastest backend of a column, " \
          "(n×) = n times its time (or n times fewer executions per second)."
      end

      private

      def declared
        @findings.results.suites.values.flat_map { |suite| Array(suite["backends"]).map { |spec| [suite, spec] } }
      end

      def column(suite, spec)
        cells = spec.fetch("rows").transform_values { |name| summary(suite, name) }
        anchor = @findings.groups_of(suite["name"]).find { |g| g.rows.any? { |r| cells.values.include?(r) } }&.anchor
        Column.new(job: spec["job"], source: spec["source"], anchor: anchor, cells: cells)
      end

      def summary(suite, name)
        @findings.summaries.find { |s| s.suite_name == suite["name"] && s.name == name && s.variant == @variant }
      end
    end
  end
end
