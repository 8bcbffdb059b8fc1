# frozen_string_literal: true

module Loom
  module Bench
    # report.html (placeholder until the charts land).
    class HtmlReport
      def initialize(results)
        @results = results
      end

      def render
        "<html><body><pre>#{TerminalReport.new(@results).render}</pre></body></html>"
      end
    end
  end
end
