# frozen_string_literal: true

module Heddle
  module Bench
    # One line of the report's first screen: a question a seed asked (declared
    # with {Presentation#answer}, merged across suites by its words) with the
    # ratio of heddle's rows to the right peer, or to the row named by
    # `against:`, under the run's primary Ruby variant.
    #
    # @example A line
    #   "1,000 trivial items over 2 processes": "heddle process pool, warm 7.81× faster than
    #   Parallel.map in_processes: 2 · target ≥ 5×: met"
    class Answer
      # A heddle row and the row it is measured against.
      Item = Struct.new(:row, :other, :group, :target, :against_peer, keyword_init: true) do
        # @return [Float] heddle's speed over the other row's
        def ratio = row.speed / other.speed

        # @return [String] see {Verdict.outcome}
        def outcome = Verdict.outcome(row, other)

        # @return [Boolean, nil] whether the ratio reaches the target (nil: no target)
        def met? = target && ratio >= target
      end

      # How {#text} counts the outcomes of several rows.
      OUTCOME_WORDS = { "wins" => "faster", "loses" => "slower", "within noise" => "tied" }.freeze
      # What a smoke run (`--quick`, one trial a row) says in place of a verdict or a target.
      SMOKE = "smoke run: not judged"

      attr_reader :question, :items

      # @param findings [Findings]
      # @return [Array<Answer>] the declared answers, merged by question, in the run's suite order
      def self.all(findings)
        parts = Hash.new { |hash, key| hash[key] = [] }
        findings.results.suites.each_value do |suite|
          Array(suite["answers"]).each { |spec| parts[spec["question"]] << [suite, spec] }
        end
        parts.map { |question, specs| new(question, specs, findings) }
      end

      # @param question [String]
      # @param parts [Array<(Hash, Hash)>] [suite description, answer declaration] pairs
      # @param findings [Findings]
      def initialize(question, parts, findings)
        @question = question
        @findings = findings
        @variant = findings.primary_variant
        @peer_name = parts.map { |_, spec| spec["peer"] }.compact.first
        @details = parts.map { |_, spec| spec["details"] }.compact.first
        @unpaired = []
        @items = parts.flat_map { |suite, spec| items_of(suite, spec) }.uniq { |i| i.row.object_id }
      end

      # @return [String, nil] where the question comes from (e.g. a seed report), for the notes
      attr_reader :details

      # @return [Boolean] whether any of its rows was measured against its other side
      def measured? = !items.empty?

      # @return [String, nil] the HTML id of the chart of its first row
      def anchor = items.first&.group&.anchor

      # The line's colour, one rule for the first screen: green ("wins", "met") only when every row beats its
      # peer beyond noise or meets its target; red ("loses", "missed") when one is slower beyond noise or
      # misses its target; grey ("noise", "neutral") for ties and lines with nothing to judge.
      #
      # @return [String] "missed" when a target is missed; against peers "wins", "loses" or "noise"; against
      #   another row with targets "met"; "neutral" otherwise
      def css
        return "neutral" if items.empty? || @findings.smoke?
        return "missed" if missed?
        return peer_css if items.first.against_peer

        items.any?(&:target) ? "met" : "neutral"
      end

      # @return [String] the line after the question
      def text
        return unpaired_text if items.empty?
        return "#{figures} · #{SMOKE}" if @findings.smoke?

        [items.size == 1 ? single : several, target_note].compact.join(" · ")
      end

      private

      def missed? = items.any? { |i| i.target && !i.met? }

      # A smoke run's figures, with no word that judges them: "heddle pool 1.20× the speed of X", or
      # "heddle 0.29–16.88× the speed of X (19 rows)".
      def figures
        low, high = items.map(&:ratio).minmax
        ratio = low == high ? format("%.2f×", low) : format("%<a>.2f–%<b>.2f×", a: low, b: high)
        return "#{items.first.group.short_name(items.first.row)} #{ratio} the speed of #{other_name}" if
          items.size == 1

        "heddle #{ratio} the speed of #{other_name} (#{items.size} rows)"
      end

      def peer_css
        outcomes = items.map(&:outcome)
        return "loses" if outcomes.include?("loses")

        outcomes.all?("wins") ? "wins" : "noise"
      end

      def items_of(suite, spec)
        groups = @findings.groups_of(suite["name"])
        groups = groups.select { |g| spec["groups"].include?(g.name) } if spec["groups"]
        groups.flat_map do |group|
          heddle_rows(group, spec).filter_map do |row|
            other = spec["against"] == "peer" ? group.best_peer(row) : against(suite, spec["against"])
            next unpaired!(row, group) unless other

            Item.new(row: row, other: other, group: group, target: spec["target"],
                     against_peer: spec["against"] == "peer")
          end
        end
      end

      def heddle_rows(group, spec)
        group.rows.select do |r|
          r.heddle? && r.measured? && r.variant == @variant && (spec["heddle"].nil? || spec["heddle"].include?(r.name))
        end
      end

      def against(suite, names)
        names.lazy.filter_map do |name|
          @findings.summaries.find do |s|
            s.suite_name == suite["name"] && s.name == name && s.variant == @variant && s.measured?
          end
        end.first
      end

      # heddle's rows measured whose other side was not (a peer not installed): their own figures, still.
      def unpaired!(row, group)
        @unpaired << [row, group] unless @unpaired.any? { |r, _| r.equal?(row) }
        nil
      end

      def unpaired_text
        return "not measured in this run" if @unpaired.empty?
        return "#{@unpaired.size} heddle rows measured; the rows to compare them with were not" if @unpaired.size > 1

        row, group = @unpaired.first
        line = "#{group.short_name(row)} #{Format.value(row.stats.median, rate: row.rate?)}; the row to compare " \
               "it with was not measured"
        floor = group.floor_for(row)
        floor ? "#{line}; #{Verdict.baseline_note(row, floor, group.short_name(floor))}" : line
      end

      def single
        item = items.first
        line = "#{item.group.short_name(item.row)} #{against_other(item)}"
        floor = item.against_peer && item.group.floor_for(item.row)
        floor ? "#{line}; #{Verdict.baseline_note(item.row, floor, item.group.short_name(floor))}" : line
      end

      # "1.25× faster than X", or "ties with X (range 0.91–1.40×)" when the trials overlap.
      def against_other(item)
        return Format.ratio_than(item.ratio, other_name) unless item.outcome == "within noise"

        Verdict.tie(item.row, item.other).sub("tie", "ties with #{other_name}")
      end

      def several = "heddle #{range} #{other_name} (#{tally})"

      # "all 19 rows faster", or "4 rows: 2 faster, 2 tied" (tied: the trials' ranges overlap).
      def tally
        counts = items.map { |i| OUTCOME_WORDS.fetch(i.outcome, "not judged") }.tally
        return "all #{items.size} rows #{counts.keys.first}" if counts.size == 1

        "#{items.size} rows: #{counts.sort_by { |word, _| OUTCOME_WORDS.values.index(word) || 9 }
                                    .map { |word, n| "#{n} #{word}" }.join(', ')}"
      end

      # "2.41–4.33× faster than", "1.05–1.20× slower than", or "0.83–4.96× the speed of".
      def range
        low, high = items.map(&:ratio).minmax
        return format("%<a>.2f–%<b>.2f× faster than", a: low, b: high) if low >= 1
        return format("%<a>.2f–%<b>.2f× slower than", a: 1 / high, b: 1 / low) if high < 1

        format("%<a>.2f–%<b>.2f× the speed of", a: low, b: high)
      end

      def other_name
        return @peer_name if @peer_name

        others = items.map(&:other).uniq(&:name)
        return "#{items.first.group.short_name(others.first)}#{floor_word(others.first)}" if others.size == 1

        libraries = others.map(&:library).uniq
        libraries.size == 1 ? @findings.library_name(libraries.first) : "their peers"
      end

      def floor_word(row) = items.first.group.floor?(row) ? " (the baseline)" : ""

      def target_note
        targets = items.filter_map(&:target).uniq
        return nil if targets.empty?

        met = items.count(&:met?)
        return "#{goal(targets)}: #{met == 1 ? 'met' : 'missed'}" if items.size == 1

        "#{goal(targets)}: met on #{met} of #{items.count(&:target)}"
      end

      def goal(targets) = targets.size == 1 ? "target ≥ #{format('%g', targets.first.round(2))}×" : "targets"
    end
  end
end
