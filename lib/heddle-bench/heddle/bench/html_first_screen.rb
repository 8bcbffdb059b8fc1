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

      # @return [String] HTML sections
      def render = [answers, backends].join("\n")

      private

      def answers
        items = @findings.answers.map do |answer|
          question = answer.anchor ? %(<a href="##{answer.anchor}">#{esc(answer.question)}</a>) : esc(answer.question)
          %(<li class="#{answer.css}"><b>#{question}</b>: #{esc(answer.text)}</li>)
        end
        return "" if items.empty?

        %(<section id="answers"><h2>Answers</h2><ul class="answers">#{items.join}</ul>) +
          %(<p class="key">#{esc(FirstScreen::ANSWERS_KEY)}</p></section>)
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

      def column_heads(table)
        table.columns.map do |c|
          job = c.anchor ? %(<a href="##{c.anchor}">#{esc(c.title)}</a>) : esc(c.title)
          "<th>#{job}<br><small>#{esc(c.source)}</small></th>"
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
