# frozen_string_literal: true

module Loom
  module Bench
    # One horizontal bar per row (its median) with a min–max whisker.
    class BarChart < Chart
      LABEL = 230 # room for row names left of the bars
      BAR = 22    # height of one row

      private

      def draw
        scale = (WIDTH - LABEL - 90) / top
        title = axis_title("longer", "shorter")
        bars = @rows.each_with_index.map { |row, i| bar(row, (i * BAR) + 24, scale) }
        svg((@rows.size * BAR) + 34, text(LABEL, 14, title, size: 11) + bars.join)
      end

      def bar(row, top_edge, scale)
        stats = row.stats
        right = LABEL + (stats.max * scale)
        baseline = top_edge + 12
        [text(LABEL - 6, baseline, @labels.fetch(row), anchor: "end"),
         rect(row, top_edge, [stats.median * scale, 1].max),
         whisker(LABEL + (stats.min * scale), right, top_edge + ((BAR - 6) / 2.0)),
         text(right + 6, baseline, value(stats.median))].join
      end

      def rect(row, top_edge, width)
        %(<rect x="#{LABEL}" y="#{top_edge}" width="#{width.round(1)}" height="#{BAR - 6}" fill="#{color(row)}">) +
          %(<title>#{tooltip(row)}</title></rect>)
      end

      def whisker(left, right, middle)
        %(<path d="M#{left.round(1)} #{middle - 4}v8M#{left.round(1)} #{middle}H#{right.round(1)}) +
          %(M#{right.round(1)} #{middle - 4}v8" stroke="#222" fill="none"/>)
      end
    end
  end
end
