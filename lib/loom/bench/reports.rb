# frozen_string_literal: true

module Loom
  module Bench
    # Writes everything a results folder holds: results.json, report.md,
    # report.html and summary.md (the loom-vs-best-peer table alone, for the
    # README).
    module Reports
      module_function

      # @param results [Results]
      # @param dir [String] created when missing
      # @return [Array<String>] the files written
      def write(results, dir)
        json = results.write(dir)
        markdown = File.join(dir, "report.md")
        html = File.join(dir, "report.html")
        File.write(markdown, MarkdownReport.new(results).render)
        File.write(html, HtmlReport.new(results).render)
        summary = File.join(dir, "summary.md")
        File.write(summary, MarkdownReport.new(results).summary_table)
        [json, markdown, html, summary]
      end
    end
  end
end
