# frozen_string_literal: true

require_relative "chart"

module Heddle
  module Bench
    # Lines over a param (e.g. worker count): one line per series, a point
    # per row at its median with a min–max whisker. The x values are spaced
    # evenly in sorted order (worker counts are usually 1, 2, 4, 8, ...).
    # A row's series is its `series:` or its library plus its other params.
    # heddle's series are solid, the peers' dashed; the y axis turns
    # logarithmic when the values span more than LOG_SPAN (10 workers and
    # 1,000 workers rarely fit one linear scale).
    class LineChart < Chart
      MIN_HEIGHT = 300
      LEFT = 70
      RIGHT = WIDTH - 280
      TOP = 24
      LEGEND_LINE = 16
      LOG_SPAN = 20
      SERIES_COLORS = %w[#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf
                         #393b79 #637939 #8c6d31 #843c39 #7b4173 #3182bd #e6550d #31a354].freeze

      # @param rows [Array<RowSummary>] rows whose measured ones all have x_param (failed ones are listed
      #   under the chart)
      # @param labels [Hash{RowSummary => String}]
      # @param x_param [String]
      def initialize(rows, labels:, x_param:)
        super(rows, labels: labels)
        @x_param = x_param
        @xs = @measured.map { |r| r.params[x_param] }.uniq
                       .sort_by { |v| [v.is_a?(Numeric) ? 0 : 1, v.to_s.to_f, v.to_s] }
        @series = @measured.group_by { |r| series_name(r) }
        @plot_height = [MIN_HEIGHT, TOP + (@series.size * LEGEND_LINE) + 50].max
        @bottom = @plot_height - 40
      end

      private

      def draw
        lines = @series.each_with_index.map { |(name, rows), i| line(name, rows, i) }
        failed = @rows.size - @measured.size
        svg(@plot_height + (failed * 18), axes + lines.join + failed_notes(@plot_height - 4))
      end

      def x_of(row) = x_at(row.params[@x_param])

      def x_at(value)
        share = @xs.size == 1 ? 0.5 : @xs.index(value) / (@xs.size - 1.0)
        (LEFT + ((RIGHT - LEFT) * share)).round(1)
      end

      def top = @measured.map { |r| r.stats.max }.max.to_f

      def low = @low ||= @measured.map { |r| r.stats.min }.select(&:positive?).min || top

      def log? = low.positive? && top / low > LOG_SPAN

      def log_range = [Math.log10(low).floor, Math.log10(top).ceil]

      def y_at(value)
        share = if log?
                  from, to = log_range
                  (Math.log10([value, low].max) - from) / (to - from).to_f
                else
                  value / top
                end
        (@bottom - ((@bottom - TOP) * share)).round(1)
      end

      def y_ticks
        return [0, top / 2, top] unless log?

        from, to = log_range
        (from..to).map { |power| 10.0**power }
      end

      def tick(number) = rate? ? Format.rate(number) : Format.tick_seconds(number)

      def series_name(row)
        others = row.params.reject { |k, _| k == @x_param }.map { |k, v| "#{k}=#{v}" }
        name = row.series || [row.library, *others].join(" ")
        several_variants? ? "#{name} [#{row.variant}]" : name
      end

      def several_variants? = @measured.map(&:variant).uniq.size > 1

      def axes
        x_ticks = @xs.map { |v| text(x_at(v), @bottom + 16, v.to_s, anchor: "middle") }
        ticks = y_ticks.map { |v| text(LEFT - 6, y_at(v) + 4, tick(v), anchor: "end") }
        %(<path d="M#{LEFT} #{TOP}V#{@bottom}H#{RIGHT}" stroke="#444" fill="none"/>) + x_ticks.join + ticks.join +
          titles
      end

      def titles
        text(LEFT, 14, "#{axis_title('higher', 'lower')}#{', log scale' if log?}", size: 11) +
          text((LEFT + RIGHT) / 2, @bottom + 32, @x_param, anchor: "middle")
      end

      def line(name, rows, index)
        rows = rows.sort_by { |r| x_of(r) }
        color = SERIES_COLORS[index % SERIES_COLORS.size]
        points = rows.map { |r| "#{x_of(r)},#{y_at(r.stats.median)}" }.join(" ")
        %(<polyline points="#{points}" fill="none" #{stroke(rows.first, color)}/>) +
          rows.map { |r| point(r, color) }.join + legend(name, index, rows.first, color)
      end

      # heddle's lines solid and thick, the peers' thin and dashed.
      def stroke(row, color)
        style = row.heddle? ? %(stroke-width="2.5") : %(stroke-width="1.5" stroke-dasharray="5 3")
        %(stroke="#{color}" #{style})
      end

      def legend(name, index, row, color)
        baseline = TOP + (index * LEGEND_LINE)
        %(<path d="M#{RIGHT + 10} #{baseline - 4}h18" fill="none" #{stroke(row, color)}/>) +
          text(RIGHT + 34, baseline, name)
      end

      def point(row, color)
        x = x_of(row)
        %(<path d="M#{x} #{y_at(row.stats.min)}V#{y_at(row.stats.max)}" stroke="#{color}"/>) +
          %(<circle #{mark(row)} cx="#{x}" cy="#{y_at(row.stats.median)}" r="3" fill="#{color}">) +
          "<title>#{tooltip(row)}</title></circle>"
      end
    end
  end
end
