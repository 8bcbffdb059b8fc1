# frozen_string_literal: true

module Heddle
  module Bench
    # One unit of seconds per column of a suite's table in report.md and
    # report.html ({Format.seconds_unit}), so a column never mixes µs, ms and s.
    module TableUnits
      module_function

      # @param rows [Array<RowSummary>] the table's rows
      # @return [Hash{Symbol => String}] :value, :cpu and :setup => "s", "ms" or "µs"
      def of(rows)
        { value: rows.flat_map { |r| %i[min max].map { |m| r.stats.public_send(m) } },
          setup: rows.map { |r| r.setup_stats.median },
          cpu: rows.flat_map { |r| [r.cpu_stats.median, r.children_cpu_stats.median] } }
          .transform_values { |values| Format.seconds_unit(values) }
      end

      # @param row [RowSummary] a duration row
      # @param unit [String] the CPU column's unit
      # @return [String] its CPU seconds, with its reaped children's when it had any
      def cpu_seconds(row, unit)
        children = row.children_cpu_stats.median
        text = Format.seconds(row.cpu_stats.median, unit: unit)
        children&.positive? ? "#{text} (children #{Format.seconds(children, unit: unit)})" : text
      end
    end
  end
end
