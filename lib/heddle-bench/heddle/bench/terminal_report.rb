# frozen_string_literal: true

module Heddle
  module Bench
    # Plain-text tables in the seeds' style, one section per suite:
    #
    #   conproc.call: 734000 executions in 1.0000 seconds  734.0k/s [701.0k–750.0k] ±2.1% ...
    #   Thread::Queue, fresh: 12.3456 seconds [12.1000 s–13.0000 s] ±2.1% ...
    #
    # then the answers of the report's first screen.
    class TerminalReport
      # @param results [Results]
      def initialize(results)
        @results = results
        @findings = Findings.new(results)
        @summaries = @findings.summaries
        @variants = results.variants.size > 1
      end

      # @return [String]
      def render
        sections = @summaries.group_by(&:suite_name).map { |name, rows| suite_section(name, rows) }
        stopped = @results.data["stopped"] && "Run #{@results.data['stopped']}: rows have fewer trials than planned.\n"
        fitted = MarkdownReport.fitted_note(@results.data)&.then { |note| "#{note}.\n" }
        [*sections, skipped_section, summary_section, fitted, stopped].compact.join("\n")
      end

      private

      def suite_section(name, rows)
        suite = @results.suites.fetch(name)
        size = @results.data.dig("sizes", name) || {}
        heading = "== #{name}: #{suite['title']} (#{[suite['unit'], *sizes(suite, size)].join('; ')}) =="
        width = rows.map { |r| label(r).size }.max + 1
        [heading, *rows.map { |row| line(row, width) }, ""].join("\n")
      end

      def sizes(suite, size)
        trials = size["trials"] && "#{size['trials']} trial#{'s' unless size['trials'] == 1}"
        window = suite["kind"] == "rate" && size["seconds"] && "#{size['seconds']} s windows, GC #{gc_word}"
        [trials, window].compact.reject { |part| part == false }
      end

      def gc_word = @results.data.dig("options", "keep_gc") ? "on" : "off"

      def label(row) = row.label(with_variant: @variants)

      def line(row, width)
        head = "#{"#{label(row)}:".ljust(width)} #{row.seed_result}"
        return head unless row.measured?

        [head, spread(row), Format.relative(row.stats), cpu(row), ratio(row), failed_note(row)]
          .reject(&:empty?).join("  ")
      end

      # Rate rows add "median [min–max]" per second; duration rows already
      # lead with theirs.
      def spread(row)
        row.rate? ? "#{Format.spread(row.stats, rate: true)}/s" : ""
      end

      def cpu(row)
        return "cpu #{Format.rate(row.cpu_stats.median)}/cpu-s" if row.rate?

        text = "cpu #{Format.seconds(row.cpu_stats.median)}, setup #{Format.seconds(row.setup_stats.median)}"
        children = row.children_cpu_stats.median
        children&.positive? ? "#{text}, children cpu #{Format.seconds(children)}" : text
      end

      def ratio(row)
        note = @findings.peer_note(row)
        note == "–" ? "" : note
      end

      def failed_note(row)
        return "" if row.failures.empty?

        "(#{row.failures.size} failed#{", #{row.owner_note}" unless row.heddle?}: #{row.failures.first['error']})"
      end

      def skipped_section
        notes = MarkdownReport.skipped_notes(@results)
        notes.empty? ? nil : ["== skipped ==", *notes, ""].join("\n")
      end

      def summary_section
        answers = @findings.answers
        return nil if answers.empty?

        smoke = @findings.smoke? && FirstScreen::SMOKE_NOTE.delete("`")
        ["== answers (#{@findings.primary_variant}) ==", smoke || nil,
         @findings.load_note.text, @findings.speed_note.text,
         *answers.map { |a| "#{a.question}: #{a.text}" }, ""].compact.join("\n")
      end
    end
  end
end
