# frozen_string_literal: true

require "cgi"

module Loom
  module Bench
    # Inline SVG charts for report.html, written by hand so the page stays
    # self-contained (no script, no external file): bars per row with
    # min–max whiskers, or lines over a param (e.g. worker count) when the
    # suite says `s.chart x: :param`.
    class Chart
      WIDTH = 760
      LABEL = 230   # room for row names left of the bars
      BAR = 22      # height of one bar row
      PALETTE = %w[#e6862e #6a9f3a #9b59b6 #c0392b #16a085 #7f8c8d #d4ac0d #8e6e53].freeze
      LOOM = "#1f6fb2"
      RUBY = "#9aa3ab"

      # @param rows [Array<RowSummary>] the measured rows of one suite
      # @param labels [Hash{RowSummary => String}] the name to show for each row
      # @param x [String, nil] the param to draw lines over; nil for bars
      def initialize(rows, labels:, x: nil)
        @rows = rows.select(&:measured?)
        @labels = labels
        @x = x
        @colors = {}
      end

      # @return [String] an <svg> element
      def render
        return svg(40, text(10, 25, "no measured rows")) if @rows.empty?

        lines? ? lines : bars
      end

      private

      def lines? = @x && @rows.all? { |r| r.params.key?(@x) }

      def rate? = @rows.first.rate?

      def axis_title
        rate? ? "executions per second (median; whiskers min–max; longer is better)" :
          "seconds (median; whiskers min–max; shorter is better)"
      end

      def bars
        top = @rows.map { |r| r.stats.max }.max
        scale = (WIDTH - LABEL - 90) / top.to_f
        body = @rows.each_with_index.map { |row, i| bar(row, (i * BAR) + 24, scale) }
        svg((@rows.size * BAR) + 34, text(LABEL, 14, axis_title, size: 11) + body.join)
      end

      def bar(row, y, scale)
        s = row.stats
        w = [s.median * scale, 1].max
        lo = LABEL + (s.min * scale)
        hi = LABEL + (s.max * scale)
        mid = y + ((BAR - 6) / 2.0)
        text(LABEL - 6, y + 12, @labels.fetch(row), anchor: "end") +
          %(<rect x="#{LABEL}" y="#{y}" width="#{w.round(1)}" height="#{BAR - 6}" fill="#{color(row)}"><title>) +
          esc("#{@labels.fetch(row)} (#{row.library}): #{Format.spread(s, rate: rate?)}") + "</title></rect>" +
          whisker(lo, hi, mid) + text(hi + 6, y + 12, Format.value(s.median, rate: rate?), anchor: "start")
      end

      def whisker(lo, hi, mid)
        %(<path d="M#{lo.round(1)} #{mid - 4}v8M#{lo.round(1)} #{mid}H#{hi.round(1)}M#{hi.round(1)} #{mid - 4}v8" ) +
          %(stroke="#222" fill="none"/>)
      end

      def lines
        xs = @rows.map { |r| r.params[@x] }.uniq.sort_by { |v| [v.is_a?(Numeric) ? 0 : 1, v.to_s.to_f, v.to_s] }
        series = @rows.group_by { |r| series_name(r) }
        height = 300
        plot = { left: 70, right: WIDTH - 200, top: 24, bottom: height - 40 }
        top = @rows.map { |r| r.stats.max }.max
        px = ->(v) { plot[:left] + ((plot[:right] - plot[:left]) * (xs.size == 1 ? 0.5 : xs.index(v) / (xs.size - 1.0))) }
        py = ->(v) { plot[:bottom] - ((plot[:bottom] - plot[:top]) * v / top.to_f) }
        body = axes(plot, xs, px, top, py) +
               series.each_with_index.map { |(name, rows), i| line(name, rows, i, px, py, plot) }.join
        svg(height, body)
      end

      def series_name(row)
        return row.series if row.series

        rest = row.params.reject { |k, _| k == @x }.map { |k, v| "#{k}=#{v}" }
        [row.library, *rest].join(" ")
      end

      def axes(plot, xs, px, top, py)
        ticks = xs.map { |v| text(px.call(v), plot[:bottom] + 16, v.to_s, anchor: "middle") }.join
        yticks = [0, top / 2.0, top].map do |v|
          text(plot[:left] - 6, py.call(v) + 4, Format.value(v, rate: rate?), anchor: "end")
        end.join
        %(<path d="M#{plot[:left]} #{plot[:top]}V#{plot[:bottom]}H#{plot[:right]}" stroke="#444" fill="none"/>) +
          ticks + yticks + text(plot[:left], 14, axis_title, size: 11) +
          text((plot[:left] + plot[:right]) / 2, plot[:bottom] + 32, @x.to_s, anchor: "middle")
      end

      def line(name, rows, index, px, py, plot)
        rows = rows.sort_by { |r| px.call(r.params[@x]) }
        color = rows.first.loom? ? LOOM : PALETTE[index % PALETTE.size]
        points = rows.map { |r| "#{px.call(r.params[@x]).round(1)},#{py.call(r.stats.median).round(1)}" }.join(" ")
        whiskers = rows.map { |r| point(r, px, py, color) }.join
        legend_y = plot[:top] + (index * 16)
        %(<polyline points="#{points}" fill="none" stroke="#{color}" stroke-width="2"/>) + whiskers +
          %(<rect x="#{plot[:right] + 12}" y="#{legend_y - 9}" width="10" height="10" fill="#{color}"/>) +
          text(plot[:right] + 26, legend_y, name, anchor: "start")
      end

      def point(row, px, py, color)
        x = px.call(row.params[@x]).round(1)
        %(<path d="M#{x} #{py.call(row.stats.min).round(1)}V#{py.call(row.stats.max).round(1)}" stroke="#{color}"/>) +
          %(<circle cx="#{x}" cy="#{py.call(row.stats.median).round(1)}" r="3" fill="#{color}"><title>) +
          esc("#{@labels.fetch(row)}: #{Format.spread(row.stats, rate: rate?)}") + "</title></circle>"
      end

      def color(row)
        return LOOM if row.loom?
        return RUBY if row.library == "ruby"

        @colors[row.library] ||= PALETTE[@colors.size % PALETTE.size]
      end

      def svg(height, body)
        %(<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="#{WIDTH}" height="#{height}" ) +
          %(viewBox="0 0 #{WIDTH} #{height}" font-family="sans-serif" font-size="12">#{body}</svg>)
      end

      def text(x, y, content, anchor: "start", size: 12)
        %(<text x="#{x.round(1)}" y="#{y.round(1)}" text-anchor="#{anchor}" font-size="#{size}">#{esc(content)}</text>)
      end

      def esc(value) = CGI.escapeHTML(value.to_s)
    end
  end
end
