# frozen_string_literal: true

require "cgi"

module Loom
  module Bench
    # report.html: one self-contained page (inline CSS and SVG, no script)
    # with the environment, the summary of loom against its best peers and,
    # per suite, a chart, a table and the code of every row.
    class HtmlReport
      STYLE = <<~CSS
        body { font-family: sans-serif; max-width: 980px; margin: 2em auto; color: #222; line-height: 1.4; }
        table { border-collapse: collapse; margin: 1em 0; font-size: 13px; }
        th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        pre { background: #f5f5f5; padding: 8px; overflow-x: auto; font-size: 12px; }
        .wins { color: #1a7f37; } .loses { color: #b42318; } .noise { color: #666; }
        .failed { color: #b42318; } svg.chart { display: block; margin: 1em 0; }
      CSS

      # @param results [Results]
      def initialize(results)
        @results = results
        @summaries = RowSummary.all(results)
        @variants = results.variants.size > 1
      end

      # @return [String] the HTML page
      def render
        <<~HTML
          <!DOCTYPE html>
          <html lang="en"><head><meta charset="utf-8"><title>loom bench report</title><style>#{STYLE}</style></head>
          <body>
          <h1>loom bench report</h1>
          #{stopped}
          #{environment}
          #{contents}
          #{summary}
          #{suites}
          #{skipped}
          </body></html>
        HTML
      end

      private

      def stopped
        reason = @results.data["stopped"]
        reason ? %(<p class="failed">Run #{esc(reason)}: rows have fewer trials than planned.</p>) : ""
      end

      def environment
        env = @results.environment
        seed = @results.data["seed"]
        items = ["#{esc(env['date'])} · seed #{seed} (repeat with <code>loom bench --seed #{seed}</code>) · " \
                 "#{@results.records.size} trials in random order",
                 "Ruby: #{esc(env.dig('ruby', 'description'))} · variants: #{esc(@results.variants.join(', '))} · " \
                 "GC #{esc(env['gc'])}",
                 esc(machine(env)), "Gems: #{esc(MarkdownReport.gems(env))}"]
        "<ul>#{items.map { |i| "<li>#{i}</li>" }.join}</ul>"
      end

      def machine(env)
        "CPU: #{env['cpu_model']} · #{env['cores']} cores · load average before " \
          "#{Array(env['load_average_before']).join(' ')}, after #{Array(env['load_average_after']).join(' ')}"
      end

      def contents
        links = @results.suites.map do |name, suite|
          %(<a href="#suite-#{esc(name)}">#{esc(name)}</a> <small>#{esc(suite['title'])}</small>)
        end
        "<p>Suites: #{links.join(' · ')}</p>"
      end

      def summary
        verdicts = Verdict.all(@summaries)
        return "" if verdicts.empty?

        rows = verdicts.map { |v| verdict_row(v) }
        "<h2>Summary: loom vs the best peer</h2><p>#{esc(MarkdownReport::SUMMARY_NOTE)}</p>" \
          "<table><tr><th>suite</th><th>loom row</th><th>best peer</th><th>ratio</th><th>CPU ratio</th>" \
          "<th>verdict</th></tr>" \
          "#{rows.join}</table>"
      end

      def verdict_row(verdict)
        css = { "wins" => "wins", "loses" => "loses" }.fetch(verdict.outcome, "noise")
        cpu = verdict.cpu_ratio ? format("%.2f", verdict.cpu_ratio) : "–"
        "<tr><td>#{esc(verdict.row.suite_name)}</td><td>#{esc(label(verdict.row))}</td>" \
          "<td>#{esc(verdict.peer.name)} (#{esc(verdict.peer.library)})</td>" \
          "<td class=\"num\">#{format('%.2f', verdict.ratio)}</td><td class=\"num\">#{cpu}</td>" \
          "<td class=\"#{css}\">#{esc(verdict)}</td></tr>"
      end

      def suites
        @summaries.group_by(&:suite_name).map do |name, rows|
          suite_section(@results.suites.fetch(name), rows)
        end.join("\n")
      end

      def suite_section(suite, rows)
        labels = rows.to_h { |r| [r, label(r)] }
        chart = Chart.for(rows, labels: labels, x_param: suite.dig("chart", "x")).render
        size = @results.data.dig("sizes", suite["name"]) || {}
        <<~HTML
          <section id="suite-#{esc(suite['name'])}">
          <h2>#{esc(suite['name'])}: #{esc(suite['title'])}</h2>
          #{"<p>#{esc(suite['description'])}</p>" if suite['description']}
          <p>Reproduces <code>#{esc(suite['seed'])}</code>. #{esc(unit_line(suite, size))}</p>
          #{chart}
          #{table(rows)}
          #{seed_words(rows)}
          #{code(rows)}
          </section>
        HTML
      end

      def unit_line(suite, size) = MarkdownReport.unit_line(suite, size)

      def seed_words(rows)
        width = rows.map { |r| label(r).size }.max + 1
        lines = rows.map { |row| "#{"#{label(row)}:".ljust(width)} #{row.seed_result}" }
        "<p>In the seed's words (the median trial):</p><pre>#{esc(lines.join("\n"))}</pre>"
      end

      def table(rows)
        head = ["row", "library", "median [min–max]", "stddev", "CPU", "set-up", "vs best peer", "failed"]
        body = rows.map do |row|
          cells = [label(row), row.library, Format.spread(row.stats, rate: row.rate?), Format.relative(row.stats),
                   cpu(row), Format.seconds(row.setup_stats.median), ratio(row), failed(row)]
          "<tr>#{cells.each_with_index.map do |c, i|
            "<td#{' class="num"' if [2, 3, 4, 5].include?(i)}>#{esc(c)}</td>"
          end.join}</tr>"
        end
        "<table><tr>#{head.map { |h| "<th>#{h}</th>" }.join}</tr>#{body.join}</table>"
      end

      def cpu(row)
        return "#{Format.rate(row.cpu_stats.median)}/cpu-s" if row.rate?

        children = row.children_cpu_stats.median
        text = Format.seconds(row.cpu_stats.median)
        children&.positive? ? "#{text} (children #{Format.seconds(children)})" : text
      end

      def ratio(row) = row.peer_note(@summaries)

      def failed(row) = row.failure_note(200)

      def code(rows)
        rows.uniq(&:name).reject { |row| row.code.strip.empty? }.map do |row|
          "<h4>#{esc(row.name)} <small>(#{esc(row.library)})</small></h4>" \
            "<pre><code>#{esc(row.code.rstrip)}</code></pre>"
        end.join("\n")
      end

      def skipped
        notes = @results.skipped.map { |s| "#{s['suite']}/#{s['row']}: #{s['reason']}" } +
                @results.load_errors.map { |file, message| "#{File.basename(file)} not loaded: #{message}" }
        return "" if notes.empty?

        "<h2>Skipped</h2><ul>#{notes.map { |n| "<li>#{esc(n)}</li>" }.join}</ul>"
      end

      def label(row) = row.label(with_variant: @variants)

      def esc(value) = CGI.escapeHTML(value.to_s)
    end
  end
end
