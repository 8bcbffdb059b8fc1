# frozen_string_literal: true

module Heddle
  module Bench
    # What a suite tells its report beyond the numbers, declared in the suite's
    # own file after its rows (a {Suite} holds one and hands it its DSL calls):
    #
    # - {#group}: rows that do one job with the same kind of resources, drawn
    #   in one chart; which rows are floors (plain Ruby, a machine's limit:
    #   shown for scale, never rivals); which peer each heddle row meets.
    # - {#answer}: one line of the report's first screen, a question the seed
    #   asked with its verdict and ratio.
    # - {#backends}: a column of the "which backend for which job" table.
    # - {#reference}: the seed report's own figure for a row, marked on its chart.
    #
    # Row selectors are names or Regexps, resolved at once against the rows
    # declared so far: a selector that matches nothing raises, so a renamed
    # row cannot silently drop out of a comparison.
    #
    # @example
    #   s.group "1,000 trivial items", rows: /\A1,000 trivial items: /, floors: ["1,000 trivial items: plain map"],
    #                                  pairs: { "1,000 trivial items: heddle process pool, warm" =>
    #                                           "1,000 trivial items: Parallel.map in_processes: 2" }
    #   s.answer "1,000 trivial items over 2 processes",
    #            group: "1,000 trivial items", heddle: "1,000 trivial items: heddle process pool, warm", target: 5
    class Presentation
      # The backends of the "which backend for which job" table, in its order.
      BACKENDS = %w[inline fiber thread process ractor].freeze

      # @return [Array<Hash>] the declared groups
      attr_reader :groups
      # @return [Array<Hash>] the declared answers
      attr_reader :answers
      # @return [Array<Hash>] the declared backend columns
      attr_reader :backend_columns
      # @return [Array<Hash>] the declared seed figures
      attr_reader :references

      # @param suite [Suite] whose rows the selectors name (read as declared so far)
      def initialize(suite)
        @suite = suite
        @groups = []
        @answers = []
        @backend_columns = []
        @references = []
      end

      # Declares a comparison group. Without any, the report makes one group of
      # the whole suite in which each heddle row meets the rows of its `compare:`.
      #
      # @param name [String] unique within the suite; the chart's title
      # @param rows [String, Regexp, Array<String, Regexp>] the group's rows
      # @param floors [String, Regexp, Array<String, Regexp>] rows shown for scale, never as rivals (added to
      #   rows); a heddle row's ratio to the first measured floor is reported beside its verdict
      # @param pairs [Hash{String => String, Array<String>}, nil] heddle row => the rows that do its job with the
      #   same resources (its verdict is against the fastest of them); nil: the non-heddle, non-floor rows with
      #   the same `compare:`
      # @param note [String, nil] a sentence under the chart's title
      # @return [Hash] the declaration
      # @raise [ArgumentError] for a duplicate name, a selector that matches no row, or a bad pair
      def group(name, rows:, floors: [], pairs: nil, note: nil)
        name = name.to_s
        raise ArgumentError, "suite #{@suite.name} already has a group named #{name.inspect}" if group_named(name)

        floor_names = select_rows(floors, "group #{name.inspect} floors:")
        members = (select_rows(rows, "group #{name.inspect} rows:") | floor_names)
        declared = { "name" => name, "rows" => members, "floors" => floor_names,
                     "pairs" => pairs && resolve_pairs(name, pairs, members - floor_names), "note" => note&.to_s }
        groups << declared
        declared
      end

      # Declares a line of the report's first screen. Answers of several suites
      # with the same question are merged into one line (e.g. the four suites
      # of Concurrently's report).
      #
      # @param question [String] e.g. "1,000 trivial items over 2 processes"
      # @param group [String, Array<String>, nil] the groups whose verdicts it sums up (nil: all)
      # @param heddle [String, Regexp, Array, nil] only these heddle rows (nil: every heddle row of the groups)
      # @param against [:peer, String, Regexp] :peer (each heddle row's verdict), or the row the heddle rows are
      #   measured against instead (a floor, or another heddle row such as the inline backend)
      # @param peer [String, nil] how to name the other side (default: from the rows)
      # @param target [Numeric, nil] the speed ratio heddle should reach (e.g. 2 for "2× faster")
      # @param details [String, nil] where the question comes from (the seed report), for the notes under
      #   the answers; the question itself stays in a user's words
      # @return [Hash] the declaration
      # @raise [ArgumentError] for an unknown group or row, or a non-positive target
      def answer(question, group: nil, heddle: nil, against: :peer, peer: nil, target: nil, details: nil) # rubocop:disable Metrics/ParameterLists -- the DSL's keywords
        raise ArgumentError, "answer target must be a positive Number, got #{target.inspect}" unless
          target.nil? || (target.is_a?(Numeric) && target.positive?)

        declared = answer_sides(question, group, heddle, against)
                   .merge("peer" => peer&.to_s, "target" => target, "details" => details&.to_s)
        answers << declared
        declared
      end

      # Declares a column of the "which backend for which job" table.
      #
      # @param job [String] "trivial", "CPU-heavy", "IO-bound" or another job (orders the columns)
      # @param source [String] how it was measured, e.g. "Heddle.map on a warm pool of 2"
      # @param rows [Hash{Symbol, String => String}] backend (one of {BACKENDS}) => row name
      # @param title [String, nil] the column's name, the job in a user's words (e.g. "1,000 tiny items");
      #   default: job
      # @param scale [String, nil] a plain-Ruby row doing the job (e.g. a `map`), shown for scale, never starred
      # @return [Hash] the declaration
      # @raise [ArgumentError] for an unknown backend or row
      def backends(job, source:, rows:, title: nil, scale: nil)
        cells = rows.to_h do |backend, row|
          unless BACKENDS.include?(backend.to_s)
            raise ArgumentError, "backends #{job.inspect}: unknown backend #{backend.inspect}; valid: " \
                                 "#{BACKENDS.join(', ')}"
          end

          [backend.to_s, select_rows(row, "backends #{job.inspect} #{backend}:").first]
        end
        declared = { "job" => job.to_s, "title" => (title || job).to_s, "source" => source.to_s, "rows" => cells,
                     "scale" => scale && select_rows(scale, "backends #{job.inspect} scale:").first }
        backend_columns << declared
        declared
      end

      # Records the seed report's own figure for a row (in the suite's unit:
      # executions per second or seconds), drawn as a mark on the row's bar.
      #
      # @param row [String] the row's name
      # @param value [Numeric] the seed's figure
      # @param note [String] where it was measured, e.g. "Ruby 2.4.1, i7-5820K"
      # @return [Hash] the declaration
      # @raise [ArgumentError] for an unknown row or a non-positive value
      def reference(row, value, note:)
        raise ArgumentError, "reference value must be a positive Number, got #{value.inspect}" unless
          value.is_a?(Numeric) && value.positive?

        declared = { "row" => select_rows(row, "reference").first, "value" => value.to_f, "note" => note.to_s }
        references << declared
        declared
      end

      # The rows the report's first screen reads, so that a run short of time
      # keeps them: each answer's heddle rows with their peers (the group's
      # `pairs:`, else the rows of the same `compare:`), floors and `against:`
      # rows, and the backend table's rows.
      #
      # @return [Array<String>] row names, in no particular order
      def first_screen_rows
        names = backend_columns.flat_map { |column| [*column["rows"].values, column["scale"]] }
        answers.each do |answer|
          answer_groups_or_all(answer).each { |group| names.concat(answer_rows(answer, group)) }
        end
        names.compact.uniq
      end

      # @param name [String]
      # @return [Hash, nil] the declared group of that name
      def group_named(name) = groups.find { |g| g["name"] == name.to_s }

      # The declarations as plain data for the JSON results, without the rows
      # a `--rows` run left out.
      #
      # @return [Hash]
      def to_h
        kept = @suite.rows.map(&:name)
        { "groups" => groups.map { |g| kept_group(g, kept) }, "answers" => answers.map { |a| kept_answer(a, kept) },
          "backends" => backend_columns.map { |c| kept_column(c, kept) },
          "references" => references.select { |r| kept.include?(r["row"]) } }
      end

      private

      # An answer's groups: those it names, else every declared one and the rest of the suite as one more.
      def answer_groups_or_all(answer)
        return answer["groups"].map { |name| group_named(name) } if answer["groups"]

        rest = @suite.rows.map(&:name) - groups.flat_map { |g| g["rows"] }
        groups + (rest.empty? ? [] : [{ "rows" => rest, "floors" => [], "pairs" => nil }])
      end

      def answer_rows(answer, group)
        heddle = (answer["heddle"] || group["rows"]).select do |name|
          group["rows"].include?(name) && @suite.row_named(name).library == "heddle"
        end
        others = answer["against"] == "peer" ? heddle.flat_map { |name| peer_names(group, name) } : answer["against"]
        heddle + group["floors"] + others
      end

      def peer_names(group, name)
        return group["pairs"].fetch(name, []) if group["pairs"]

        compare = @suite.row_named(name).compare or return []
        group["rows"].select do |other|
          row = @suite.row_named(other)
          row.library != "heddle" && !group["floors"].include?(other) && row.compare == compare
        end
      end

      def kept_column(column, kept)
        column.merge("rows" => column["rows"].select { |_, n| kept.include?(n) },
                     "scale" => kept.include?(column["scale"]) ? column["scale"] : nil)
      end

      def kept_answer(answer, kept) = answer.merge("heddle" => answer["heddle"] && (answer["heddle"] & kept))

      def kept_group(group, kept)
        pairs = group["pairs"]&.slice(*kept)&.transform_values { |peers| peers & kept }
        group.merge("rows" => group["rows"] & kept, "floors" => group["floors"] & kept, "pairs" => pairs)
      end

      # The names of the rows matching a selector, in the suite's row order.
      def select_rows(selector, what)
        Array(selector).flat_map do |one|
          names = @suite.rows.map(&:name).select { |n| one.is_a?(Regexp) ? one.match?(n) : n == one.to_s }
          raise ArgumentError, "#{what} #{one.inspect} matches no row of suite #{@suite.name}" if names.empty?

          names
        end.uniq
      end

      def resolve_pairs(group, pairs, peers)
        pairs.to_h do |heddle, others|
          heddle_name = select_rows(heddle, "group #{group.inspect} pairs:").first
          raise ArgumentError, "group #{group.inspect} pairs: #{heddle_name.inspect} is not a heddle row" unless
            @suite.row_named(heddle_name).library == "heddle"

          matched = select_rows(others, "group #{group.inspect} pairs:")
          stray = matched.reject { |n| peers.include?(n) && @suite.row_named(n).library != "heddle" }
          if stray.any?
            raise ArgumentError, "group #{group.inspect} pairs: #{stray.inspect} are not peer rows of the group " \
                                 "(a peer is neither heddle's nor a floor)"
          end

          [heddle_name, matched]
        end
      end

      def answer_sides(question, group, heddle, against)
        what = "answer #{question.inspect}"
        { "question" => question.to_s, "groups" => group && answer_groups(group),
          "heddle" => heddle && select_rows(heddle, "#{what} heddle:"), "against" => against_rows(against, what) }
      end

      def against_rows(against, what) = against == :peer ? "peer" : select_rows(against, "#{what} against:")

      def answer_groups(names)
        Array(names).map do |n|
          unless group_named(n)
            raise ArgumentError,
                  "answer: suite #{@suite.name} has no group #{n.inspect} (declare it first)"
          end

          n.to_s
        end
      end
    end
  end
end
