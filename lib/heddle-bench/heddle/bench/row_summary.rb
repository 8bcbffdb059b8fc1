# frozen_string_literal: true

module Heddle
  module Bench
    # The trials of one row under one Ruby variant, summarised: statistics of
    # the measured value, CPU time and set-up, and failures. Which rows it is
    # compared with is the business of its {Group}.
    class RowSummary
      attr_reader :suite, :row, :variant, :records

      # Summaries of every row in results, in suite and row definition order.
      #
      # @param results [Results]
      # @return [Array<RowSummary>]
      def self.all(results)
        grouped = results.records.group_by { |r| [r["suite"], r["row"], r["variant"]] }
        results.suites.flat_map do |suite_name, suite|
          suite.fetch("rows").flat_map do |row|
            results.variants.filter_map do |variant|
              records = grouped[[suite_name, row["name"], variant]]
              new(suite, row, variant, records) if records
            end
          end
        end
      end

      # @param suite [Hash] the suite's description from the results
      # @param row [Hash] the row's description
      # @param variant [String]
      # @param records [Array<Hash>] its trials
      def initialize(suite, row, variant, records)
        @suite = suite
        @row = row
        @variant = variant
        @records = records.sort_by { |r| r["trial"].to_i }
      end

      def name = @row["name"]
      def library = @row["library"]
      def compare = @row["compare"]
      def params = @row["params"] || {}
      def code = @row["code"].to_s
      def series = @row["series"]
      def suite_name = @suite["name"]

      # @return [Boolean] true for rate rows (higher is better)
      def rate? = @suite["kind"] == "rate"

      # @return [Array<Hash>] the trials that measured something
      def ok = records.select { |r| r["status"] == "ok" }

      # @return [Array<Hash>] the trials that failed
      def failures = records.reject { |r| r["status"] == "ok" }

      # @return [Stats] of the measured value (executions/s or seconds)
      def stats = @stats ||= Stats.of(ok.map { |r| r["value"] })

      # @return [Stats] of executions per CPU-second (rate) or CPU seconds (duration)
      def cpu_stats = @cpu_stats ||= Stats.of(ok.map { |r| r["cpu_value"] })

      # @return [Stats] of the set-up seconds
      def setup_stats = @setup_stats ||= Stats.of(ok.map { |r| r["setup_seconds"] })

      # @return [Stats] of the CPU seconds of reaped child processes
      def children_cpu_stats = @children_cpu_stats ||= Stats.of(ok.map { |r| r["children_cpu_seconds"] })

      # @return [Boolean] whether any trial measured something
      def measured? = stats.n.positive?

      # @return [Hash, nil] the trial with the median value (for "N executions in S seconds")
      def median_record
        sorted = ok.sort_by { |r| r["value"] }
        sorted[(sorted.size - 1) / 2]
      end

      # The result in the seeds' words: "734000 executions in 1.0000 seconds"
      # (the median trial of a rate row) or "0.8512 s median [0.8301 s–0.9012 s]".
      #
      # @return [String]
      def seed_result
        return "#{failed_word} (#{failures.size}/#{records.size}): #{failures.first&.fetch('error', nil)}" unless
          measured?
        return "#{Format.seconds(stats.median)} median #{Format.spread(stats, rate: false)[/\[.*\]/]}" unless rate?

        rec = median_record
        format("%<n>d executions in %<s>.4f seconds", n: rec["executions"], s: rec["wall_seconds"])
      end

      # @return [Float, nil] higher is better: the rate, or 1 / seconds
      def speed
        return nil unless measured?

        rate? ? stats.median : 1.0 / stats.median
      end

      # @return [Boolean] whether the row is one of heddle's
      def heddle? = library == "heddle"

      # The failures column of the Markdown and HTML reports, before their escaping.
      #
      # @param limit [Integer] characters of the first failure's message to keep
      # @return [String] "0", or "2/5: " and the first failure's message
      def failure_note(limit)
        return "0" if failures.empty?

        whose = heddle? ? "" : " (#{owner_note})"
        "#{failures.size}/#{records.size}#{whose}: #{failures.first['error'].to_s[0, limit]}"
      end

      # @return [String] "FAILED" for heddle's rows; a peer's says the failure is its own, so a reader does not
      #   take it for heddle breaking
      def failed_word = heddle? ? "FAILED" : "FAILED, #{owner_note}"

      # @return [String] e.g. "plain Ruby's own row, not heddle's"
      def owner_note = "#{Findings::LIBRARY_NAMES.fetch(library, library)}'s own row, not heddle's"

      # @param other [RowSummary]
      # @return [Boolean] whether the min–max ranges of the two rows overlap (a difference within noise)
      def overlaps?(other)
        stats.min <= other.stats.max && other.stats.min <= stats.max
      end

      # @param with_variant [Boolean]
      # @return [String] the row's name, with the Ruby variant when the run had several
      def label(with_variant: false) = with_variant ? "#{name} [#{variant}]" : name
    end
  end
end
