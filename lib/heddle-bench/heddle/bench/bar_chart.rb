# frozen_string_literal: true

require_relative "chart"

module Heddle
  module Bench
    # One horizontal bar per row (its median) with a min–max whisker and its
    # value written beside it, and the seed's own figure as a diamond where
    # the suite gives one. When the values span more than LOG_SPAN the axis
    # is logarithmic, with a line per power of ten: on a linear axis a row of
    # 115 µs beside one of 0.69 s is an invisible sliver.
    class BarChart < Chart
      BAR = 22        # height of one row
      TOP = 34        # room for the axis title and the log ticks
      CHAR = 7.2      # width of a character of the 12px labels, roughly (with room to spare)
      VALUE_ROOM = 96 # right of the longest whisker, for the value
      MIN_BAR = 3     # pixels: the shortest bar still shows
      LOG_SPAN = 100
      # A log axis starts this many times below the smallest value (rounded down to a power of ten), so
      # that the shortest bar is still ~half a decade long.
      LOG_ROOM = 3

      private

      # Room for the longest row name left of the bars, within limits.
      def label_width
        @label_width ||= ((@rows.map { |r| @labels.fetch(r).size }.max * CHAR) + 12).clamp(80, 430).round
      end

      def plot_width = WIDTH - label_width - VALUE_ROOM

      def values
        @values ||= @measured.flat_map { |r| [r.stats.min, r.stats.max, *references(r).map { |ref| ref["value"] }] }
      end

      def references(row) = @references.fetch(row.name, [])

      def top = values.max.to_f

      def log? = values.min.positive? && top / values.min > LOG_SPAN

      def low = @low ||= 10.0**Math.log10(values.min / LOG_ROOM).floor

      def x_at(number)
        share = if log?
                  (Math.log10([number, low].max) - Math.log10(low)) / (Math.log10(top) - Math.log10(low))
                else
                  number / top
                end
        label_width + (plot_width * share)
      end

      def draw
        bottom = TOP + (@rows.size * BAR)
        title = text(label_width, 13, "#{axis_title('longer', 'shorter')}#{', log scale' if log?}", size: 11)
        bars = @rows.each_with_index.map { |row, i| bar(row, TOP + (i * BAR)) }
        svg(bottom + 28, title + (log? ? decades(bottom) : "") + bars.join + legend(bottom))
      end

      # A faint line and a label per power of ten of a log axis.
      def decades(bottom)
        (Math.log10(low).ceil..Math.log10(top).floor).map do |power|
          left = x_at(10.0**power).round(1)
          %(<path d="M#{left} #{TOP - 4}V#{bottom}" stroke="#ddd" fill="none"/>) +
            text(left, TOP - 7, tick(10.0**power), anchor: "middle", size: 10)
        end.join
      end

      def tick(number) = rate? ? Format.rate(number) : Format.tick_seconds(number)

      # One swatch per library, then the seed's mark when the chart has one.
      def legend(top_edge)
        left = label_width
        swatches = @measured.uniq(&:library).map do |row|
          swatch = %(<rect x="#{left}" y="#{top_edge + 6}" width="10" height="10" fill="#{color(row)}"/>) +
                   text(left + 14, top_edge + 15, row.library, size: 11)
          left += (row.library.size * CHAR) + 34
          swatch
        end
        swatches << reference_key(left, top_edge) if @measured.any? { |r| references(r).any? }
        swatches.join
      end

      def reference_key(left, top_edge)
        diamond(left + 5, top_edge + 11) + text(left + 14, top_edge + 15, "the seed's own figure", size: 11)
      end

      def bar(row, top_edge)
        name = text(label_width - 6, top_edge + 12, @labels.fetch(row), anchor: "end")
        name + (row.measured? ? measured(row, top_edge) : failed(row, top_edge))
      end

      def measured(row, top_edge)
        middle = top_edge + ((BAR - 6) / 2.0)
        seeds = references(row).map { |ref| reference(ref, middle) }.join
        rect(row, top_edge) + whisker(row, middle) + seeds +
          text(right_end(row) + 6, top_edge + 12, value(row.stats.median))
      end

      # Where the row's drawing ends: its whisker, or a seed's mark beyond it.
      def right_end(row) = [x_at(row.stats.max), *references(row).map { |ref| x_at(ref["value"]) + 5 }].max

      def reference(ref, middle)
        title = esc("the seed's figure: #{value(ref['value'])} (#{ref['note']})")
        %(<g class="reference">#{diamond(x_at(ref['value']), middle)}<title>#{title}</title></g>)
      end

      def diamond(left, middle)
        path = "M#{left.round(1)} #{(middle - 6).round(1)}l5 6l-5 6l-5 -6z"
        %(<path d="#{path}" fill="#fff" stroke="#111" stroke-width="1.5"/>)
      end

      def failed(row, top_edge)
        whose = row.heddle? ? "" : ", #{row.owner_note}"
        %(<text #{mark(row)} x="#{label_width}" y="#{top_edge + 12}" fill="#{FAILED}">) +
          "#{esc("failed (#{row.failures.size}/#{row.records.size} trials#{whose})")}</text>"
      end

      def rect(row, top_edge)
        width = [x_at(row.stats.median) - label_width, MIN_BAR].max
        %(<rect #{mark(row)} x="#{label_width}" y="#{top_edge}" width="#{width.round(1)}" height="#{BAR - 6}" ) +
          %(fill="#{color(row)}"><title>#{tooltip(row)}</title></rect>)
      end

      def whisker(row, middle)
        left = x_at(row.stats.min)
        right = x_at(row.stats.max)
        %(<path d="M#{left.round(1)} #{middle - 4}v8M#{left.round(1)} #{middle}H#{right.round(1)}) +
          %(M#{right.round(1)} #{middle - 4}v8" stroke="#222" fill="none"/>)
      end
    end
  end
end
