# frozen_string_literal: true

module Loom
  module Bench
    # Lines over a param (e.g. worker count): one line per series, a point
    # per row at its median with a min–max whisker. The x values are spaced
    # evenly in sorted order (worker counts are usually 1, 2, 4, 8, ...).
    # A row's series is its `series:` or its library plus its other params.
    class LineChart < Chart
      HEIGHT = 300
      LEFT = 70
      RIGHT = WIDTH - 260
      TOP = 24
      BOTTOM = HEIGHT - 40

      # @param rows [Array<RowSummary>] measured rows that all have x_param
      # @param labels [Hash{RowSummary => String}]
      # @param x_param [String]
      def initialize(rows, labels:, x_param:)
        super(rows, labels: labels)
        @x_param = x_param
        @xs = rows.map { |r| r.params[x_param] }.uniq.sort_by { |v| [v.is_a?(Numeric) ? 0 : 1, v.to_s.to_f, v.to_s] }
      end

      private

      def draw
        series = @rows.group_by { |r| series_name(r) }
        lines = series.each_with_index.map { |(name, rows), i| line(name, rows, i) }
        svg(HEIGHT, axes + lines.join)
      end

      def x_of(row) = x_at(row.params[@x_param])

      def x_at(value)
        share = @xs.size == 1 ? 0.5 : @xs.index(value) / (@xs.size - 1.0)
        (LEFT + ((RIGHT - LEFT) * share)).round(1)
      end

      def y_at(value) = (BOTTOM - ((BOTTOM - TOP) * value / top)).round(1)

      def series_name(row)
        others = row.params.reject { |k, _| k == @x_param }.map { |k, v| "#{k}=#{v}" }
        name = row.series || [row.library, *others].join(" ")
        several_variants? ? "#{name} [#{row.variant}]" : name
      end

      def several_variants? = @rows.map(&:variant).uniq.size > 1

      def axes
        x_ticks = @xs.map { |v| text(x_at(v), BOTTOM + 16, v.to_s, anchor: "middle") }
        y_ticks = [0, top / 2, top].map { |v| text(LEFT - 6, y_at(v) + 4, value(v), anchor: "end") }
        %(<path d="M#{LEFT} #{TOP}V#{BOTTOM}H#{RIGHT}" stroke="#444" fill="none"/>) + x_ticks.join + y_ticks.join +
          titles
      end

      def titles
        text(LEFT, 14, axis_title("higher", "lower"), size: 11) +
          text((LEFT + RIGHT) / 2, BOTTOM + 32, @x_param, anchor: "middle")
      end

      def line(name, rows, index)
        rows = rows.sort_by { |r| x_of(r) }
        color = rows.first.loom? ? LOOM : PALETTE[index % PALETTE.size]
        points = rows.map { |r| "#{x_of(r)},#{y_at(r.stats.median)}" }.join(" ")
        %(<polyline points="#{points}" fill="none" stroke="#{color}" stroke-width="2"/>) +
          rows.map { |r| point(r, color) }.join + legend(name, index, color)
      end

      def legend(name, index, color)
        baseline = TOP + (index * 16)
        %(<rect x="#{RIGHT + 12}" y="#{baseline - 9}" width="10" height="10" fill="#{color}"/>) +
          text(RIGHT + 26, baseline, name)
      end

      def point(row, color)
        x = x_of(row)
        %(<path d="M#{x} #{y_at(row.stats.min)}V#{y_at(row.stats.max)}" stroke="#{color}"/>) +
          %(<circle cx="#{x}" cy="#{y_at(row.stats.median)}" r="3" fill="#{color}">) +
          "<title>#{tooltip(row)}</title></circle>"
      end
    end
  end
end
