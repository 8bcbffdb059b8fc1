# frozen_string_literal: true

module Heddle
  module Bench
    # report.md: the first screen ({FirstScreen}: answers and the backend
    # table), the environment, every heddle row's verdict, then per suite a
    # table (median [min–max], spread, CPU, ratio to its peer) and the code
    # of every row. Its class methods are shared with the HTML report.
    class MarkdownReport
      SUMMARY_NOTE = "Each heddle row against the fastest row doing the same job with the same resources (its " \
                     "comparison group's peer), and beside the group's baseline (plain Ruby or a bare primitive " \
                     "doing the job, for scale). Ratio = heddle's speed over the peer's (> 1: heddle is faster), " \
                     "from medians of wall-clock time; CPU ratio = the same from executions per CPU-second of the " \
                     "process (rate suites). \"tie\": the min–max ranges of the trials overlap; the range is the " \
                     "lowest to the highest ratio the trials allow."
      SUMMARY_HEAD = ["suite", "group", "heddle row", "peer", "ratio", "CPU ratio", "verdict", "vs baseline"].freeze

      # @param results [Results]
      def initialize(results)
        @results = results
        @findings = Findings.new(results)
        @summaries = @findings.summaries
        @variants = results.variants.size > 1
      end

      # @param env [Hash] a run's environment
      # @return [String] "async 2.23.1, ..." with missing peers marked
      def self.gems(env)
        (env["gems"] || {}).map { |name, version| "#{name} #{version || '(not installed)'}" }.join(", ")
      end

      # @param env [Hash] a run's environment
      # @return [String] which path heddle's io hooks ran and its selector (empty for runs that did not record it)
      def self.io_hooks(env)
        hooks = env["heddle_io_hooks"] ? " · heddle's scheduler io hooks: #{env['heddle_io_hooks']}" : ""
        env["heddle_selector"] ? "#{hooks} · selector: #{env['heddle_selector']}" : hooks
      end

      # @param env [Hash] the results' environment
      # @return [String] " · CPU while measuring: this run 71%, other programs 2%" ("" for a run that did not
      #   sample it)
      def self.cpu_share(env)
        share = env["cpu_share"] or return ""

        format(" · CPU while measuring: this run %<own>d%%, other programs %<other>d%%",
               own: (share["own"] * 100).round, other: (share["other"] * 100).round)
      end

      # @param data [Hash] the results' data
      # @return [String, nil] how many trials the run kept of its plan to end within its deadline (nil: all)
      def self.fitted_note(data)
        fitted = data["fitted"] or return nil

        "Trials: at most #{fitted['rounds']} per row, of the #{fitted['planned_rounds']} planned " \
          "(#{fitted['dropped_trials']} of #{fitted['planned_trials']} trials): the first rounds' times said the " \
          "later ones would end past the #{Progress.format_seconds(fitted['deadline'])} deadline"
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

      # @param verdict [Verdict]
      # @param label [String] the heddle row's label
      # @return [Array<String>] the cells of {SUMMARY_HEAD}, unescaped
      def self.verdict_cells(verdict, label)
        peer = verdict.peer
        floor = verdict.floor
        [verdict.row.suite_name, verdict.group.name, label, peer ? "#{peer.name} (#{peer.library})" : "–",
         peer ? format("%.2f", verdict.ratio) : "–", verdict.cpu_ratio ? format("%.2f", verdict.cpu_ratio) : "–",
         peer ? verdict.to_s : "no peer", floor ? Verdict.baseline_note(verdict.row, floor, floor.name) : "–"]
      end

      # @param results [Results]
      # @return [Array<String>] one line for the rows skipped for missing gems (which, how many, how to add
      #   them), one note per row skipped for another reason, one per unloaded suite file
      def self.skipped_notes(results)
        missing = MissingGems.new(results.skipped)
        left, other = missing.other_rows.partition { |s| s["reason"].start_with?(Plan::LEFT_OUT) }
        [missing.line, (Runner.left_out_line(left) unless left.empty?),
         *other.map { |s| "#{s['suite']}/#{s['row']}: #{s['reason']}" },
         *results.load_errors.map { |file, message| "#{File.basename(file)} not loaded: #{message}" }].compact
      end

      # @return [String] Markdown
      def render
        [header, FirstScreen.new(@findings).render, environment, summary, *suites, skipped].compact.join("\n")
      end

      # @return [String] the first screen and the verdicts, for summary.md
      def summary_page
        ["# heddle bench summary", "", FirstScreen.context(@results), "", FirstScreen.new(@findings).render,
         summary].compact.join("\n")
      end

      private

      def header
        env = @results.environment
        "# heddle bench report\n\n#{FirstScreen.context(@results)} · GC #{env['gc']} · " \
          "repeat with `heddle bench --seed #{@results.data['seed']}`\n#{stopped_note}"
      end

      def stopped_note
        stopped = @results.data["stopped"]
        stopped ? "\n**Run #{stopped}**: rows have fewer trials than planned.\n" : ""
      end

      def environment
        env = @results.environment
        <<~MD
          ## Environment

          - Ruby: #{env.dig('ruby', 'description')} · variants measured: #{@results.variants.join(', ')}
          - CPU: #{env['cpu_model']} · #{env['cores']} cores · #{env['os']}#{self.class.cpu_share(env)}
          - Load average (1/5/15 min): before #{Array(env['load_average_before']).join(' ')}, after #{Array(env['load_average_after']).join(' ')}
          - Gems: #{self.class.gems(env)}#{self.class.io_hooks(env)}
          #{"- #{self.class.fitted_note(@results.data)}" if @results.data['fitted']}
        MD
      end

      def summary
        verdicts = @findings.verdicts
        return nil if verdicts.empty?

        rows = verdicts.map { |v| "| #{self.class.verdict_cells(v, label(v.row)).map { |c| cell(c) }.join(' | ')} |" }
        ["## Every heddle row against its peer", "", SUMMARY_NOTE, "", "| #{SUMMARY_HEAD.join(' | ')} |",
         "|---|---|---|---|---:|---:|---|---|", *rows, ""].join("\n")
      end

      def suites
        @summaries.group_by(&:suite_name).map { |name, rows| suite_section(@results.suites.fetch(name), rows) }
      end

      def suite_section(suite, rows)
        size = @results.data.dig("sizes", suite["name"]) || {}
        lines = ["## #{suite['name']}: #{suite['title']}", ""]
        lines << "#{suite['description']}\n" if suite["description"]
        lines << "#{seed_note(suite)} #{self.class.unit_line(suite, size)}" << ""
        lines.concat(groups_note(suite))
        lines.concat(table(rows)) << ""
        lines.concat(seed_words(rows))
        lines.concat(code_blocks(rows))
        lines.join("\n")
      end

      def seed_note(suite)
        seed = suite["seed"].to_s
        seed.empty? ? "Not from a seed report: a job of heddle's own." : "Reproduces `#{seed}`."
      end

      # The declared groups, one line each (report.html draws a chart per group).
      def groups_note(suite)
        groups = @findings.groups_of(suite["name"]).reject(&:whole_suite?)
        return [] if groups.empty?

        ["Comparison groups:", "", *groups.map { |g| group_line(g) }, ""]
      end

      def group_line(group)
        floors = group.rows.select { |r| group.floor?(r) }.map(&:name).uniq
        floor = floors.empty? ? "" : "; baseline: #{floors.join(', ')}"
        "- #{group.name}: #{group.rows.map(&:name).uniq.size} rows#{floor}#{" — #{group.note}" if group.note}"
      end

      def seed_words(rows)
        width = rows.map { |r| label(r).size }.max + 1
        ["In the seed's words (the median trial):", "", "```text",
         *rows.map { |row| "#{"#{label(row)}:".ljust(width)} #{row.seed_result}" }, "```", ""]
      end

      def table(rows)
        cpu_head = rows.first.rate? ? "per CPU-second" : "CPU s (children)"
        units = TableUnits.of(rows)
        ["| row | library | median [min–max] | stddev | #{cpu_head} | set-up | vs peer | failed |",
         "|---|---|---|---:|---:|---:|---|---:|", *rows.map { |row| table_row(row, units) }]
      end

      def table_row(row, units)
        rate = row.rate?
        cpu = rate ? Format.rate(row.cpu_stats.median) : TableUnits.cpu_seconds(row, units[:cpu])
        "| #{cell(label(row))} | #{row.library} | #{Format.spread(row.stats, rate: rate, unit: units[:value])} | " \
          "#{Format.relative(row.stats)} | #{cpu} | #{Format.seconds(row.setup_stats.median, unit: units[:setup])} | " \
          "#{cell(@findings.peer_note(row))} | #{cell(row.failure_note(160))} |"
      end

      def code_blocks(rows)
        rows.uniq(&:name).reject { |row| row.code.strip.empty? }.flat_map do |row|
          ["**#{row.name}** (#{row.library})", "", "```ruby", row.code.rstrip, "```", ""]
        end
      end

      def skipped
        notes = self.class.skipped_notes(@results)
        notes.empty? ? nil : ["## Skipped", "", *notes.map { |n| "- #{n}" }, ""].join("\n")
      end

      def label(row) = row.label(with_variant: @variants)

      def cell(text) = text.to_s.gsub("|", "\\|").gsub("\n", " ")
    end
  end
end
