# frozen_string_literal: true

module Heddle
  module Bench
    # `heddle bench compare OLD NEW`: each row measured in both runs, with the
    # change of its median and whether that change is beyond the noise.
    #
    # A change counts only when the two min–max ranges of the trials do not
    # overlap (every new trial beats, or loses to, every old one). This is
    # deliberately conservative: with 5 trials per side it matches a
    # one-sided Mann–Whitney test at p < 0.004, and it needs no model of the
    # noise on a shared machine. The Mann–Whitney p-value (normal
    # approximation) is printed beside it for the reader.
    class Comparison
      # @param old [Results]
      # @param new [Results]
      def initialize(old, new)
        @old = index(old)
        @new = index(new)
        @old_results = old
        @new_results = new
      end

      # One compared row.
      Change = Struct.new(:key, :old, :new, keyword_init: true) do
        # @return [Float] new speed over old speed (> 1: faster now)
        def ratio = new.speed / old.speed

        # @return [Boolean] whether the ranges are disjoint
        def significant? = !new.overlaps?(old)

        # @return [Float, nil] Mann–Whitney p of the two sets of trial values
        def p_value = Stats.mann_whitney_p(old.ok.map { |r| r["value"] }, new.ok.map { |r| r["value"] })
      end

      # @return [Array<Change>] rows measured in both runs
      def changes
        (@old.keys & @new.keys).filter_map do |key|
          old = @old[key]
          new = @new[key]
          Change.new(key: key, old: old, new: new) if old.measured? && new.measured?
        end
      end

      # @return [String] a text table
      def render
        flagged = changes.count(&:significant?)
        [header, *changes.map { |c| line(c) }, *unmatched,
         "#{flagged} of #{changes.size} rows changed beyond the noise (min–max ranges do not overlap)"].join("\n")
      end

      private

      def unmatched
        { "old" => @old.keys - @new.keys, "new" => @new.keys - @old.keys }.filter_map do |side, keys|
          "only in #{side}: #{keys.map { |k| k.join('/') }.join(', ')}" unless keys.empty?
        end
      end

      def index(results)
        RowSummary.all(results).to_h { |s| [[s.suite_name, s.name, s.variant], s] }
      end

      def header
        old_env = @old_results.environment
        new_env = @new_results.environment
        "old: #{old_env['date']} #{old_env.dig('ruby', 'description')}\n" \
          "new: #{new_env['date']} #{new_env.dig('ruby', 'description')}"
      end

      def line(change)
        rate = change.new.rate?
        flag = if change.significant?
                 change.ratio > 1 ? "FASTER" : "SLOWER"
               else
                 "same (within noise)"
               end
        p = change.p_value
        format("%<key>s: %<old>s -> %<new>s  %<pct>+.1f%% speed  %<flag>s%<p>s",
               key: change.key.join("/"), old: Format.spread(change.old.stats, rate: rate),
               new: Format.spread(change.new.stats, rate: rate), pct: (change.ratio - 1) * 100, flag: flag,
               p: p ? format("  (Mann-Whitney p=%.3f)", p) : "")
      end
    end
  end
end
