# frozen_string_literal: true

require "cgi"

module Heddle
  module Bench
    # Inline SVG charts for report.html, one per comparison group, written by
    # hand so the page stays self-contained (no script, no external file).
    # {Chart.for} picks bars per row with min–max whiskers ({BarChart}), or
    # lines over a param such as the worker count when the suite says
    # `s.chart x: :param` ({LineChart}). This base class holds the SVG
    # helpers and the colours, which stay the same for a library in every
    # chart of a report.
    #
    # Every row gets exactly one element of class "mark" carrying its label
    # in data-row (its bar, its point, or its "failed" note), and the <svg>
    # says in data-rows how many rows it draws: the browser test counts them.
    class Chart
      WIDTH = 900
      HEDDLE = "#1f6fb2"
      RUBY = "#9aa3ab"
      # Fixed colours for the peers the suites use; others take one from PALETTE by name.
      # None is green or red: those mean "beats" and "misses" on the first screen ({HtmlFirstScreen::LEGEND}).
      LIBRARY_COLORS = { "concurrently" => "#e6862e", "async" => "#d4ac0d", "parallel" => "#9b59b6",
                         "pbt" => "#e377c2", "concurrent-ruby" => "#17becf", "thread" => "#8e6e53" }.freeze
      PALETTE = %w[#393b79 #7f8c8d #8c564b #5b8db8 #b5a642 #6b4c9a].freeze
      FAILED = "#b42318"

      # @param group [Group] the rows to draw
      # @param labels [Hash{RowSummary => String}] the name to show for each row (unique within the group)
      # @param references [Hash{String => Array<Hash>}] row name => the seed's figures ("value", "note")
      # @return [Chart]
      def self.for(group, labels:, references: {})
        x_param = group.suite.dig("chart", "x")
        measured = group.rows.select(&:measured?)
        if x_param && !measured.empty? && measured.all? { |r| r.params.key?(x_param) }
          LineChart.new(group.rows, labels: labels, x_param: x_param)
        else
          BarChart.new(group.rows, labels: labels, references: references)
        end
      end

      # @param library [String]
      # @return [String] the library's colour, the same in every chart
      def self.color(library)
        return HEDDLE if library == "heddle"
        return RUBY if library == "ruby"

        LIBRARY_COLORS.fetch(library) { PALETTE[library.sum % PALETTE.size] }
      end

      # @param rows [Array<RowSummary>] the rows to draw (unmeasured ones are shown as failed)
      # @param labels [Hash{RowSummary => String}]
      # @param references [Hash{String => Array<Hash>}]
      def initialize(rows, labels:, references: {})
        @rows = rows
        @measured = rows.select(&:measured?)
        @labels = labels
        @references = references
      end

      # @return [String] an <svg> element
      def render
        return svg(18 + (@rows.size * 18), failed_notes(4)) if @measured.empty?

        draw
      end

      private

      def rate? = @measured.first.rate?

      def axis_title(better_rate, better_duration)
        unit, better = rate? ? ["executions per second", better_rate] : ["seconds", better_duration]
        "#{unit} (median; whiskers min–max; #{better} is better)"
      end

      def value(number) = Format.value(number, rate: rate?)

      def tooltip(row) = esc("#{@labels.fetch(row)} (#{row.library}): #{Format.spread(row.stats, rate: rate?)}")

      def color(row) = self.class.color(row.library)

      def mark(row) = %(class="mark" data-row="#{esc(@labels.fetch(row))}")

      def svg(height, body)
        %(<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="#{WIDTH}" height="#{height}" ) +
          %(viewBox="0 0 #{WIDTH} #{height}" font-family="sans-serif" font-size="12" data-rows="#{@rows.size}">) +
          "#{body}</svg>"
      end

      # A line per row that measured nothing, from top_edge down (18 px each).
      def failed_notes(top_edge)
        @rows.reject(&:measured?).each_with_index.map do |row, i|
          %(<text #{mark(row)} x="10" y="#{top_edge + 12 + (i * 18)}" fill="#{FAILED}">) +
            "#{esc("#{@labels.fetch(row)}: failed (#{row.failures.size}/#{row.records.size} trials" \
                   "#{", #{row.owner_note}" unless row.heddle?})")}</text>"
        end.join
      end

      def text(left, baseline, content, anchor: "start", size: 12)
        %(<text x="#{left.round(1)}" y="#{baseline.round(1)}" text-anchor="#{anchor}" font-size="#{size}">) +
          "#{esc(content)}</text>"
      end

      def esc(value) = CGI.escapeHTML(value.to_s)
    end
  end
end
