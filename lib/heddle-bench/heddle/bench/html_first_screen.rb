# frozen_string_literal: true

require "cgi"

module Heddle
  module Bench
    # The first screen of report.html (see {FirstScreen}): the answers, each
    # linked to its group's chart, and the backend table, fastest marked.
    class HtmlFirstScreen
      # @param findings [Findings]
      def initialize(findings)
        @findings = findings
      end

      # The one colour rule of the first screen (answers, backend table, verdicts).
      LEGEND = [["good", "beats its peer (or every other backend) beyond noise, or meets its target"],
                ["bad", "slower than its peer beyond noise, or misses its target"],
                ["even", "a tie (the trials' ranges overlap), or nothing to judge"]].freeze

      # @return [String] HTML sections
      def render = [legend, load, answers, backends, key].join("\n")

      # @return [String] the colour rule, one line; a smoke run's note instead, as it colours nothing
      def legend
        return %(<p class="legend smoke" id="legend"><b>#{esc(FirstScreen::SMOKE_NOTE.delete('`'))}</b></p>) if
          @findings.smoke?

        items = LEGEND.map { |css, words| %(<span><i class="#{css}"></i>#{esc(words)}</span>) }
        %(<p class="legend" id="legend">Colours: #{items.join}</p>)
      end

      private

      def answers
        items = @findings.answers.map do |answer|
          question = answer.anchor ? %(<a href="##{answer.anchor}">#{esc(answer.question)}</a>) : esc(answer.question)
          title = answer.details ? %( title="#{esc(answer.details)}") : ""
          %(<li class="#{answer.css}"#{title}><b>#{question}</b>: #{esc(answer.text)}</li>)
        end
        return "" if items.empty?

        %(<section id="answers"><h2>Answers</h2><ul class="answers">#{items.join}</ul></section>)
      end

      def backends
        table = @findings.backend_table
        return "" if table.empty?

        rows = table.backends.map { |b| backend_row(table, b) }
        rows << scale_row(table) if table.scale?
        rows << "<tr class=\"verdict\"><th>verdict</th>#{table.columns.map { |c| verdict_cell(c) }.join}</tr>"
        %(<section id="backends"><h2>Which backend for which job</h2><table class="backends">\
<tr><th>backend</th>#{column_heads(table).join}</tr>#{rows.join}</table>\
<p class="key">#{esc(table.legend)}</p></section>)
      end

      def load
        text = @findings.load_note.text
        speed = @findings.speed_note.text
        missing = MissingGems.new(@findings.results.skipped).line
        [text && %(<p class="load" id="load">#{esc(text)}</p>),
         speed && %(<p class="load" id="speed">#{esc(speed)}</p>),
         missing && %(<p class="load" id="missing">#{esc(missing)}</p>)].compact.join
      end

      # How to read the answers' ratios, below the first screen's two sections (they must fit in it).
      def key
        sources = FirstScreen.sources(@findings)
        %(<p class="key">#{esc(FirstScreen::ANSWERS_KEY)}</p>#{%(<p class="key">#{esc(sources)}</p>) if sources})
      end

      def column_heads(table)
        table.columns.map do |c|
          job = c.anchor ? %(<a href="##{c.anchor}">#{esc(c.title)}</a>) : esc(c.title)
          %(<th title="#{esc(c.source)}">#{job}</th>)
        end
      end

      def backend_row(table, backend)
        cells = table.columns.map do |column|
          %(<td class="num #{table.css(column, backend)}">#{esc(table.cell(column, backend))}</td>)
        end
        "<tr><th>#{esc(backend)}</th>#{cells.join}</tr>"
      end

      def scale_row(table)
        cells = table.columns.map { |c| %(<td class="num scale">#{esc(table.scale_cell(c))}</td>) }
        "<tr><th>#{esc(BackendTable::SCALE)}</th>#{cells.join}</tr>"
      end

      def verdict_cell(column)
        css = if column.winner then "best"
              elsif column.tied.empty? then "none"
              else
                "tie"
              end
        %(<td class="#{css}">#{esc(column.verdict)}</td>)
      end

      def esc(value) = CGI.escapeHTML(value.to_s)
    end
  end
end
