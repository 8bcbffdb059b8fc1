# frozen_string_literal: true

module Heddle
  module Bench
    # The top of report.md, report.html and the README's generated block: the
    # run in one line, the answers to the seeds' questions, and which backend
    # to use for which job. This class renders Markdown; {HtmlFirstScreen}
    # the same content as HTML.
    class FirstScreen
      # How to read the answers, under their heading.
      ANSWERS_KEY = "Ratios compare speeds (executions per second, or 1 / seconds) of heddle's row and the row " \
                    "doing the same job with the same resources, from medians. \"tie (range a–b×)\": the min–max " \
                    "ranges of the trials overlap, so the run cannot tell them apart; a–b× is the lowest to the " \
                    "highest ratio the trials allow. The baseline is plain Ruby or a bare primitive doing the job " \
                    "(a `map`, a Thread::Queue), shown for scale, not as a rival; a baseline heddle beats beyond " \
                    "noise is no floor for that job."

      # The first line of a smoke run's first screen, so nobody reads its figures as a verdict.
      SMOKE_NOTE = "Smoke run (`heddle bench --quick`): every suite ran end to end, one short trial a row. " \
                   "One trial has no spread to tell a difference from noise, so nothing here is judged: the " \
                   "figures only show that each row runs. For verdicts, run `heddle bench`."

      # @param findings [Findings]
      def initialize(findings)
        @findings = findings
        @results = findings.results
      end

      # @param results [Results]
      # @return [String] e.g. "2026-11-23 06:21 UTC · Ruby 3.1.2, no YJIT · 2 × AMD EPYC · seed 30810 · 591 trials"
      def self.context(results)
        env = results.environment
        variant = Findings.new(results).primary_variant
        date = env["date"].to_s.sub("T", " ").sub(/:\d\dZ\z/, " UTC")
        trials = results.records.size
        ["#{date} · Ruby #{env.dig('ruby', 'version')}, #{variant == 'yjit' ? 'YJIT' : 'no YJIT'}",
         "#{env['cores']} × #{env['cpu_model']}", "seed #{results.data['seed']}",
         "#{trials} trials in random order"].join(" · ")
      end

      # @param findings [Findings]
      # @return [String, nil] "Where the questions come from: ..." (nil when no answer says)
      def self.sources(findings)
        notes = findings.answers.filter_map { |a| a.details && "#{a.question}: #{a.details}" }
        notes.empty? ? nil : "Where the questions come from: #{notes.join('; ')}."
      end

      # @param link [String, nil] where the answers' anchors live (e.g. "docs/results/latest/report.html"),
      #   nil for none (report.md has no charts to link to)
      # @param level [Integer] the headings' level
      # @return [String] Markdown
      def render(link: nil, level: 2)
        load = @findings.load_note.text
        speed = @findings.speed_note.text
        missing = MissingGems.new(@results.skipped).line
        smoke = @findings.smoke? && "**#{SMOKE_NOTE}**\n"
        [smoke, load && "**#{load}**\n", speed && "**#{speed}**\n", missing && "**#{missing}**\n",
         answers(link, level), backends(level)]
          .select { |part| part }.join("\n")
      end

      private

      def answers(link, level)
        lines = @findings.answers.map do |answer|
          question = link && answer.anchor ? "[#{answer.question}](#{link}##{answer.anchor})" : answer.question
          "- **#{question}**: #{answer.text}"
        end
        return nil if lines.empty?

        ["#{'#' * level} Answers", "", *lines, "", ANSWERS_KEY, *sources, ""].join("\n")
      end

      # The answers' origins (the seed reports they reproduce), kept off the questions themselves.
      def sources
        line = self.class.sources(@findings)
        line ? ["", line] : []
      end

      def backends(level)
        table = @findings.backend_table
        return nil if table.empty?

        ["#{'#' * level} Which backend for which job", "", "| backend | #{table.columns.map(&:title).join(' | ')} |",
         "|---|#{'---:|' * table.columns.size}", *backend_rows(table), "", table.legend, "", table.sources, ""]
          .join("\n")
      end

      def backend_rows(table)
        rows = table.backends.map { |b| "| #{b} | #{table.columns.map { |c| table.cell(c, b) }.join(' | ')} |" }
        rows << "| #{BackendTable::SCALE} | #{table.columns.map { |c| table.scale_cell(c) }.join(' | ')} |" if
          table.scale?
        rows << "| **verdict** | #{table.columns.map { |c| "**#{c.verdict}**" }.join(' | ')} |"
      end
    end
  end
end
