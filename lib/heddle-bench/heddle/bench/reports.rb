# frozen_string_literal: true

module Heddle
  module Bench
    # Writes everything a results folder holds: results.json, report.md,
    # report.html and summary.md (the first screen and every verdict).
    module Reports
      module_function

      # @param results [Results]
      # @param dir [String] created when missing
      # @return [Array<String>] the files written
      def write(results, dir)
        [results.write(dir), *render(results, dir)]
      end

      # Writes the reports of results into a folder, leaving its results.json as it is.
      #
      # @param results [Results]
      # @param dir [String] an existing folder
      # @return [Array<String>] the files written
      def render(results, dir)
        markdown = File.join(dir, "report.md")
        html = File.join(dir, "report.html")
        File.write(markdown, MarkdownReport.new(results).render)
        File.write(html, HtmlReport.new(results).render)
        summary = File.join(dir, "summary.md")
        File.write(summary, MarkdownReport.new(results).summary_page)
        [markdown, html, summary]
      end
    end
  end
end
