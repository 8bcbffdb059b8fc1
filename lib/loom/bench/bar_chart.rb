# frozen_string_literal: true

module Loom
  module Bench
    # One horizontal bar per row (its median) with a min–max whisker.
    class BarChart < Chart
      BAR = 22        # height of one row
      CHAR = 7.2      # width of a character of the 12px labels, roughly (with room to spare)
      VALUE_ROOM = 90 # right of the longest whisker, for the value

      private

      # Room for the longest row name left of the bars, within limits.
      def label_width
        @label_width ||= ((@rows.map { |r| @labels.fetch(r).size }.max * CHAR) + 12).clamp(80, 430).round
      end

      def draw
        scale = (WIDTH - label_width - VALUE_ROOM) / top
        bars = @rows.each_with_index.map { |row, i| bar(row, (i * BAR) + 24, scale) }
        bottom = (@rows.size * BAR) + 24
        svg(bottom + 28, text(label_width, 14, axis_title("longer", "shorter"), size: 11) + bars.join + legend(bottom))
      end

      # One swatch per library, in a line under the bars.
      def legend(top_edge)
        left = label_width
        @measured.uniq(&:library).map do |row|
          swatch = %(<rect x="#{left}" y="#{top_edge + 6}" width="10" height="10" fill="#{color(row)}"/>) +
                   text(left + 14, top_edge + 15, row.library, size: 11)
          left += (row.library.size * CHAR) + 34
          swatch
        end.join
      end

      def bar(row, top_edge, scale)
        name = text(label_width - 6, top_edge + 12, @labels.fetch(row), anchor: "end")
        name + (row.measured? ? measured(row, top_edge, scale) : failed(row, top_edge))
      end

      def measured(row, top_edge, scale)
        stats = row.stats
        right = label_width + (stats.max * scale)
        rect(row, top_edge, [stats.median * scale, 1].max) +
          whisker(label_width + (stats.min * scale), right, top_edge + ((BAR - 6) / 2.0)) +
          text(right + 6, top_edge + 12, value(stats.median))
      end

      def failed(row, top_edge)
        %(<text x="#{label_width}" y="#{top_edge + 12}" fill="#b42318">) +
          "#{esc("failed (#{row.failures.size}/#{row.records.size} trials)")}</text>"
      end

      def rect(row, top_edge, width)
        %(<rect x="#{label_width}" y="#{top_edge}" width="#{width.round(1)}" height="#{BAR - 6}" ) +
          %(fill="#{color(row)}"><title>#{tooltip(row)}</title></rect>)
      end

      def whisker(left, right, middle)
        %(<path d="M#{left.round(1)} #{middle - 4}v8M#{left.round(1)} #{middle}H#{right.round(1)}) +
          %(M#{right.round(1)} #{middle - 4}v8" stroke="#222" fill="none"/>)
      end
    end
  end
end
