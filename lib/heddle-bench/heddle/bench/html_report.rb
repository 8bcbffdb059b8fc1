# frozen_string_literal: true

require "cgi"

module Heddle
  module Bench
    # report.html: one self-contained page (inline CSS and SVG, no script).
    # Its first screen answers "for my job, what should I use, and by how
    # much?" ({HtmlFirstScreen}); below come the environment, every heddle
    # row's verdict and, per suite, a chart per comparison group, a table and
    # the code of every row.
    class HtmlReport
      STYLE = <<~CSS
        body { font: 14px/1.4 sans-serif; max-width: 1100px; margin: 1em auto; padding: 0 1em; color: #222; }
        h1 { font-size: 22px; margin: 0; } h2 { font-size: 18px; margin: 1.2em 0 .4em; } h3 { font-size: 15px; }
        .context, .key { color: #555; font-size: 12px; margin: .2em 0 .6em; }
        ul.answers { list-style: none; padding: 0; margin: 0; }
        ul.answers li { border-left: 4px solid #bbb; padding: 0 0 0 8px; margin: 2px 0; line-height: 1.25; color: #222;
                        font-size: 13px; }
        ul.answers li.wins, ul.answers li.met { border-color: #1a7f37; }
        ul.answers li.loses, ul.answers li.missed { border-color: #b42318; }
        p.legend { font-size: 12px; margin: .2em 0; } p.load { font-size: 12px; margin: .3em 0; font-weight: bold; } p.legend span { white-space: nowrap; margin-right: 1em; }
        p.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; }
        i.good { background: #1a7f37; } i.bad { background: #b42318; } i.even { background: #bbb; }
        table { border-collapse: collapse; margin: .6em 0; font-size: 13px; }
        th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        table.backends td, table.backends th { padding: 2px 6px; }
        td.best { font-weight: bold; background: #e3f1e6; color: #1a7f37; } td.tie { background: #eee; }
        td.scale { color: #666; font-style: italic; } tr.verdict td { font-weight: bold; }
        pre { background: #f5f5f5; padding: 8px; overflow-x: auto; font-size: 12px; }
        .wins { color: #1a7f37; } .loses { color: #b42318; } .noise { color: #666; }
        td.tie, td.noise { color: #555; }
        .failed { color: #b42318; } p.stopped { font-size: 12px; margin: .2em 0; } svg.chart { display: block; margin: .4em 0 1em; }
        figure { margin: 0; }
      CSS

      # @param results [Results]
      def initialize(results)
        @results = results
        @findings = Findings.new(results)
        @variants = results.variants.size > 1
      end

      # @return [String] the HTML page
      def render
        <<~HTML
          <!DOCTYPE html>
          <html lang="en"><head><meta charset="utf-8"><title>heddle bench report</title><style>#{STYLE}</style></head>
          <body>
          <header id="top"><h1>heddle bench report</h1><p class="context">#{esc(FirstScreen.context(@results))}</p></header>
          #{stopped}
          #{HtmlFirstScreen.new(@findings).render}
          #{contents}
          #{environment}
          #{summary}
          #{suites}
          #{skipped}
          </body></html>
        HTML
      end

      private

      def stopped
        reason = @results.data["stopped"]
        reason ? %(<p class="failed stopped">Run #{esc(reason)}: rows have fewer trials than planned.</p>) : ""
      end

      def environment
        env = @results.environment
        seed = @results.data["seed"]
        items = ["#{esc(env['date'])} · seed #{seed} (repeat with <code>heddle bench --seed #{seed}</code>) · " \
                 "#{@results.records.size} trials in random order",
                 "Ruby: #{esc(env.dig('ruby', 'description'))} · variants: #{esc(@results.variants.join(', '))} · " \
                 "GC #{esc(env['gc'])}",
                 esc(machine(env)), "Gems: #{esc(MarkdownReport.gems(env))}#{esc(MarkdownReport.io_hooks(env))}",
                 fitted].compact
        %(<h2 id="environment">Environment</h2><ul>#{items.map { |i| "<li>#{i}</li>" }.join}</ul>)
      end

      def fitted = MarkdownReport.fitted_note(@results.data)&.then { |note| esc(note) }

      def machine(env)
        "CPU: #{env['cpu_model']} · #{env['cores']} cores · load average before " \
          "#{Array(env['load_average_before']).join(' ')}, after #{Array(env['load_average_after']).join(' ')}" \
          "#{MarkdownReport.cpu_share(env)}"
      end

      def contents
        links = @results.suites.map do |name, suite|
          next unless @findings.summaries.any? { |s| s.suite_name == name }

          %(<a href="#suite-#{esc(name)}">#{esc(name)}</a> <small>#{esc(suite['title'])}</small>)
        end
        %(<p>Suites: #{links.compact.join(' · ')} · <a href="#verdicts">every verdict</a> · \
<a href="#environment">environment</a></p>)
      end

      def summary
        verdicts = @findings.verdicts
        return "" if verdicts.empty?

        %(<h2 id="verdicts">Every heddle row against its peer</h2><p>#{esc(MarkdownReport::SUMMARY_NOTE)}</p>) +
          "<table><tr>#{MarkdownReport::SUMMARY_HEAD.map { |h| "<th>#{esc(h)}</th>" }.join}</tr>" \
          "#{verdicts.map { |v| verdict_row(v) }.join}</table>"
      end

      def verdict_row(verdict)
        css = { "wins" => "wins", "loses" => "loses" }.fetch(verdict.outcome, "noise")
        cells = MarkdownReport.verdict_cells(verdict, label(verdict.row)).each_with_index.map do |cell, i|
          content = i == 1 ? %(<a href="##{verdict.group.anchor}">#{esc(cell)}</a>) : esc(cell)
          klass = { 4 => "num", 5 => "num", 6 => css }[i]
          "<td#{%( class="#{klass}") if klass}>#{content}</td>"
        end
        "<tr>#{cells.join}</tr>"
      end

      def suites
        @findings.summaries.group_by(&:suite_name).map do |name, rows|
          suite_section(@results.suites.fetch(name), rows)
        end.join("\n")
      end

      def suite_section(suite, rows)
        size = @results.data.dig("sizes", suite["name"]) || {}
        <<~HTML
          <section id="suite-#{esc(suite['name'])}">
          <h2>#{esc(suite['name'])}: #{esc(suite['title'])}</h2>
          #{"<p>#{esc(suite['description'])}</p>" if suite['description']}
          <p>#{seed_note(suite)} #{esc(MarkdownReport.unit_line(suite, size))}</p>
          #{@findings.groups_of(suite['name']).map { |g| group_figure(g) }.join("\n")}
          #{table(rows)}
          #{seed_words(rows)}
          #{code(rows)}
          </section>
        HTML
      end

      def seed_note(suite)
        seed = suite["seed"].to_s
        seed.empty? ? "Not from a seed report: a job of heddle's own." : "Reproduces <code>#{esc(seed)}</code>."
      end

      def group_figure(group)
        labels = group.rows.to_h { |r| [r, chart_label(group, r)] }
        chart = Chart.for(group, labels: labels, references: @findings.references(group.suite_name)).render
        heading = group.whole_suite? ? "" : "<h3>#{esc(group.name)}</h3>"
        note = group.note ? %(<p class="key">#{esc(group.note)}</p>) : ""
        %(<figure id="#{group.anchor}">#{heading}#{note}#{chart}</figure>)
      end

      def chart_label(group, row)
        name = group.short_name(row)
        name += " (baseline)" if group.floor?(row)
        @variants ? "#{name} [#{row.variant}]" : name
      end

      def seed_words(rows)
        width = rows.map { |r| label(r).size }.max + 1
        lines = rows.map { |row| "#{"#{label(row)}:".ljust(width)} #{row.seed_result}" }
        "<p>In the seed's words (the median trial):</p><pre>#{esc(lines.join("\n"))}</pre>"
      end

      def table(rows)
        head = ["row", "library", "median [min–max]", "stddev", "CPU", "set-up", "vs peer", "failed"]
        units = TableUnits.of(rows)
        body = rows.map do |row|
          "<tr>#{table_cells(row, units).each_with_index.map do |c, i|
            "<td#{' class="num"' if [2, 3, 4, 5].include?(i)}>#{esc(c)}</td>"
          end.join}</tr>"
        end
        "<table><tr>#{head.map { |h| "<th>#{h}</th>" }.join}</tr>#{body.join}</table>"
      end

      def table_cells(row, units)
        [label(row), row.library, Format.spread(row.stats, rate: row.rate?, unit: units[:value]),
         Format.relative(row.stats), cpu(row, units[:cpu]), setup(row, units[:setup]), @findings.peer_note(row),
         row.failure_note(200)]
      end

      def cpu(row, unit)
        row.rate? ? "#{Format.rate(row.cpu_stats.median)}/cpu-s" : TableUnits.cpu_seconds(row, unit)
      end

      def setup(row, unit) = Format.seconds(row.setup_stats.median, unit: unit)

      def code(rows)
        rows.uniq(&:name).reject { |row| row.code.strip.empty? }.map do |row|
          "<h4>#{esc(row.name)} <small>(#{esc(row.library)})</small></h4>" \
            "<pre><code>#{esc(row.code.rstrip)}</code></pre>"
        end.join("\n")
      end

      def skipped
        notes = MarkdownReport.skipped_notes(@results)
        return "" if notes.empty?

        %(<h2 id="skipped">Skipped</h2><ul>#{notes.map { |n| "<li>#{esc(n)}</li>" }.join}</ul>)
      end

      def label(row) = row.label(with_variant: @variants)

      def esc(value) = CGI.escapeHTML(value.to_s)
    end
  end
end
