# frozen_string_literal: true

module Heddle
  module Bench
    # The rows a run skipped because a gem was not installed (a peer such as
    # Parallel, or heddle-redis for heddle's Redis rows), told in one line per
    # run rather than one per row: which gems, how many rows each, and the
    # command that adds them. heddle's own rows ran and keep their answers.
    class MissingGems
      # Gems whose files a row requires under another name (by the file, or its first folder).
      FEATURE_GEMS = { "concurrent" => "concurrent-ruby", "heddle/workers/redis" => "heddle-redis" }.freeze
      # The reason a row was skipped for a missing file.
      MISSING = %r{cannot load such file -- ([\w\-/]+)}

      # @param skipped [Array<Hash>] {"suite", "row", "reason"} per skipped row (as {Results#skipped})
      def initialize(skipped)
        @skipped = skipped
      end

      # @return [Hash{String => Integer}] gem => how many rows its absence skipped, in first-seen order
      def counts
        @counts ||= @skipped.filter_map { |s| gem_of(s["reason"]) }.tally
      end

      # @return [Array<String>] the gems
      def gems = counts.keys

      # @return [Boolean] whether a gem's absence skipped any row
      def any? = !counts.empty?

      # @return [Array<Hash>] the skipped rows whose reason is not a missing gem
      def other_rows = @skipped.reject { |s| gem_of(s["reason"]) }

      # @return [String, nil] e.g. "Not installed: parallel (12 rows), async (9 rows): those rows were skipped,
      #   heddle's own ran. Add them: ...", nil when nothing was missing
      def line
        return nil unless any?

        listed = counts.map { |gem, n| "#{gem} (#{n} row#{'s' unless n == 1})" }.join(", ")
        "Not installed: #{listed}; those rows were skipped, heddle's own rows ran. Add them: in heddle's " \
          "checkout `bundle install` (Gemfile group :peers); beside an installed heddle, " \
          "`gem install #{gems.join(' ')}`."
      end

      private

      def gem_of(reason)
        file = reason.to_s[MISSING, 1]
        file && (FEATURE_GEMS[file] || FEATURE_GEMS.fetch(file.split("/").first, file.split("/").first))
      end
    end
  end
end
