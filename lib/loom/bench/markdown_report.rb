# frozen_string_literal: true

module Loom
  module Bench
    # report.md: the environment, the summary of loom against its best peers,
    # then per suite a table (median [min–max], spread, CPU, ratio to the
    # best peer) and the code of every row.
    class MarkdownReport
      # @param results [Results]
      def initialize(results)
        @results = results
        @summaries = RowSummary.all(results)
        @variants = results.variants.size > 1
      end

      SUMMARY_NOTE = "Ratio = loom's speed over the best peer's in the same suite and compare group " \
                     "(> 1: loom is faster), from medians of wall-clock time; CPU ratio = the same from " \
                     "executions per CPU-second of the process (rate suites). \"within noise\": the min–max " \
                     "ranges overlap."

      # @param env [Hash] a run's environment
      # @return [String] "async 2.23.1, ..." with missing peers marked
      def self.gems(env)
        (env["gems"] || {}).map { |name, version| "#{name} #{version || '(not installed)'}" }.join(", ")
      end

      # @param suite [Hash] a suite's description from the results
      # @param size [Hash] its "trials" and "seconds"
      # @return [String] what the numbers are and how many trials made them
      def self.unit_line(suite, size)
        trials = "#{size['trials']} trial#{'s' unless size['trials'] == 1}"
        if suite["kind"] == "rate"
          "Executions per second (higher is better), #{trials} of #{size['seconds']} s windows."
        else
          "#{suite['unit']} (lower is better), #{trials}; set-up timed apart."
        end
      end

      # @return [String] Markdown
      def render
        [header, environment, summary, *suites, skipped].compact.join("\n")
      end

      # @return [String] the summary section alone (empty when no loom row has a peer)
      def summary_table = summary.to_s

      private

      def header
        env = @results.environment
        "# loom bench report\n\n#{env['date']} · seed #{@results.data['seed']} " \
          "(repeat with `loom bench --seed #{@results.data['seed']}`) · #{@results.records.size} trials " \
          "in random order · GC #{env['gc']}\n#{stopped_note}"
      end

      def stopped_note
        stopped = @results.data["stopped"]
        stopped ? "\n**Run #{stopped}**: rows have fewer trials than planned.\n" : ""
      end

      def environment
        env = @results.environment
        gems = self.class.gems(env)
        <<~MD
          ## Environment

          - Ruby: #{env.dig('ruby', 'description')} · variants measured: #{@results.variants.join(', ')}
          - CPU: #{env['cpu_model']} · #{env['cores']} cores · #{env['os']}
          - Load average (1/5/15 min): before #{Array(env['load_average_before']).join(' ')}, after #{Array(env['load_average_after']).join(' ')}
          - Gems: #{gems}
        MD
      end

      def summary
        verdicts = Verdict.all(@summaries)
        return nil if verdicts.empty?

        rows = verdicts.map do |v|
          "| #{v.row.suite_name} | #{cell(label(v.row))} | #{cell(v.peer.name)} (#{v.peer.library}) | " \
            "#{format('%.2f', v.ratio)} | #{v.cpu_ratio ? format('%.2f', v.cpu_ratio) : '–'} | #{v} |"
        end
        ["## Summary: loom vs the best peer", "", SUMMARY_NOTE, "",
         "| suite | loom row | best peer | ratio | CPU ratio | verdict |", "|---|---|---|---:|---:|---|", *rows, ""]
          .join("\n")
      end

      def suites
        @summaries.group_by(&:suite_name).map { |name, rows| suite_section(@results.suites.fetch(name), rows) }
      end

      def suite_section(suite, rows)
        size = @results.data.dig("sizes", suite["name"]) || {}
        lines = ["## #{suite['name']}: #{suite['title']}", ""]
        lines << "#{suite['description']}\n" if suite["description"]
        lines << "Reproduces `#{suite['seed']}`. #{unit_line(suite, size)}" << ""
        lines.concat(table(rows)) << ""
        lines.concat(seed_words(rows))
        lines.concat(code_blocks(rows))
        lines.join("\n")
      end

      def unit_line(suite, size) = self.class.unit_line(suite, size)

      def seed_words(rows)
        width = rows.map { |r| label(r).size }.max + 1
        ["In the seed's words (the median trial):", "", "```text",
         *rows.map { |row| "#{"#{label(row)}:".ljust(width)} #{row.seed_result}" }, "```", ""]
      end

      def table(rows)
        cpu_head = rows.first.rate? ? "per CPU-second" : "CPU s (children)"
        ["| row | library | median [min–max] | stddev | #{cpu_head} | set-up | vs best peer | failed |",
         "|---|---|---|---:|---:|---:|---|---:|", *rows.map { |row| table_row(row) }]
      end

      def table_row(row)
        rate = row.rate?
        cpu = rate ? Format.rate(row.cpu_stats.median) : cpu_seconds(row)
        "| #{cell(label(row))} | #{row.library} | #{Format.spread(row.stats, rate: rate)} | " \
          "#{Format.relative(row.stats)} | #{cpu} | #{Format.seconds(row.setup_stats.median)} | " \
          "#{ratio(row)} | #{failed(row)} |"
      end

      def cpu_seconds(row)
        children = row.children_cpu_stats.median
        text = Format.seconds(row.cpu_stats.median)
        children&.positive? ? "#{text} (#{Format.seconds(children)})" : text
      end

      # The escaping of the whole note equals escaping only the names in it:
      # the ratio, counts and punctuation hold no "|" or newline.
      def ratio(row) = cell(row.peer_note(@summaries))

      def failed(row) = cell(row.failure_note(160))

      def code_blocks(rows)
        rows.uniq(&:name).reject { |row| row.code.strip.empty? }.flat_map do |row|
          ["**#{row.name}** (#{row.library})", "", "```ruby", row.code.rstrip, "```", ""]
        end
      end

      def skipped
        notes = @results.skipped.map { |s| "- #{s['suite']}/#{s['row']}: #{s['reason']}" } +
                @results.load_errors.map { |file, message| "- #{File.basename(file)} not loaded: #{message}" }
        notes.empty? ? nil : ["## Skipped", "", *notes, ""].join("\n")
      end

      def label(row) = row.label(with_variant: @variants)

      def cell(text) = text.to_s.gsub("|", "\\|").gsub("\n", " ")
    end
  end
end
