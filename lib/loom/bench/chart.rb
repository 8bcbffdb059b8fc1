# frozen_string_literal: true

require "cgi"

module Loom
  module Bench
    # Inline SVG charts for report.html, written by hand so the page stays
    # self-contained (no script, no external file). {Chart.for} picks bars
    # per row with min–max whiskers ({BarChart}), or lines over a param such
    # as the worker count when the suite says `s.chart x: :param`
    # ({LineChart}). This base class holds the SVG helpers and colours.
    class Chart
      WIDTH = 900
      PALETTE = %w[#e6862e #6a9f3a #9b59b6 #c0392b #16a085 #7f8c8d #d4ac0d #8e6e53].freeze
      LOOM = "#1f6fb2"
      RUBY = "#9aa3ab"

      # @param rows [Array<RowSummary>] the rows of one suite
      # @param labels [Hash{RowSummary => String}] the name to show for each row
      # @param x_param [String, nil] the param to draw lines over; nil for bars
      # @return [Chart]
      def self.for(rows, labels:, x_param: nil)
        measured = rows.select(&:measured?)
        if x_param && !measured.empty? && measured.all? { |r| r.params.key?(x_param) }
          LineChart.new(measured, labels: labels, x_param: x_param)
        else
          BarChart.new(rows, labels: labels)
        end
      end

      # @param rows [Array<RowSummary>] the rows to draw (unmeasured ones are shown as failed)
      # @param labels [Hash{RowSummary => String}]
      def initialize(rows, labels:)
        @rows = rows
        @measured = rows.select(&:measured?)
        @labels = labels
        @colors = {}
      end

      # @return [String] an <svg> element
      def render
        return svg(40, text(10, 25, "no measured rows")) if @measured.empty?

        draw
      end

      private

      def rate? = @measured.first.rate?

      def top = @measured.map { |r| r.stats.max }.max.to_f

      def axis_title(better_rate, better_duration)
        unit, better = rate? ? ["executions per second", better_rate] : ["seconds", better_duration]
        "#{unit} (median; whiskers min–max; #{better} is better)"
      end

      def value(number) = Format.value(number, rate: rate?)

      def tooltip(row) = esc("#{@labels.fetch(row)} (#{row.library}): #{Format.spread(row.stats, rate: rate?)}")

      def color(row)
        return LOOM if row.loom?
        return RUBY if row.library == "ruby"

        @colors[row.library] ||= PALETTE[@colors.size % PALETTE.size]
      end

      def svg(height, body)
        %(<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="#{WIDTH}" height="#{height}" ) +
          %(viewBox="0 0 #{WIDTH} #{height}" font-family="sans-serif" font-size="12">#{body}</svg>)
      end

      def text(left, baseline, content, anchor: "start", size: 12)
        %(<text x="#{left.round(1)}" y="#{baseline.round(1)}" text-anchor="#{anchor}" font-size="#{size}">) +
          "#{esc(content)}</text>"
      end

      def esc(value) = CGI.escapeHTML(value.to_s)
    end
  end
end
