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

        head = table.columns.map do |c|
          job = c.anchor ? %(<a href="##{c.anchor}">#{esc(c.job)}</a>) : esc(c.job)
          "<th>#{job}<br><small>#{esc(c.source)}</small></th>"
        end
        rows = table.backends.map { |b| backend_row(table, b) }.join
        %(<section id="backends"><h2>Which backend for which job</h2><table class="backends">\
<tr><th>backend</th>#{head.join}</tr>#{rows}</table><p class="key">#{esc(table.legend)}</p></section>)
      end

      def backend_row(table, backend)
        cells = table.columns.map do |column|
          css = column.fastest == backend ? "num fastest" : "num"
          %(<td class="#{css}">#{esc(table.cell(column, backend))}</td>)
        end
        "<tr><th>#{esc(backend)}</th>#{cells.join}</tr>"
      end

      def esc(value) = CGI.escapeHTML(value.to_s)
    end
  end
end
