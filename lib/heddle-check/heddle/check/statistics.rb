# frozen_string_literal: true

module Heddle
  module Check
    # What a check generated, counted in the driver as the cases are drawn:
    # the labels of `label:` (QuickCheck's classify/collect, jqwik's
    # Statistics.collect), the best score of `target:`, how many draws
    # filters refused, and how many cases were alike. Labels and scores are
    # functions of the generated arguments, computed where they are
    # generated, so they are the same on every worker backend (a case run
    # in another process or ractor has nowhere to report to).
    #
    # Two health warnings, as Hypothesis's health checks: more than half of
    # the draws refused (filter, unique), and nearly all cases alike (the
    # same choices, or the same label). Alike choices are found by a
    # majority vote (Boyer and Moore's) over a sample of the cases (every
    # {Engine::SAMPLE}th, or all with a label or target): one comparison
    # per sampled case, no hash of every case, as a cheap check's cost is
    # its generation (the `checks` benchmark's simple row). The vote's count
    # is a lower bound of the most common case's: it is at least
    # ALIKE - (1 - ALIKE) of the sample whenever ALIKE of it is alike.
    class Statistics
      # Share of refused draws above which a check is warned about.
      REFUSED = 0.5
      # Share of cases that, alike, make a check warned about.
      ALIKE = 0.9
      # Fewer cases (sampled cases) than this say nothing about alikeness (a check of 3 runs).
      MIN_CASES = 10
      # Labels shown in a summary line; the rest are summed as "other".
      SHOWN = 6

      # @return [Integer] cases counted
      attr_reader :cases
      # @return [Hash{Object => Integer}] cases per label
      attr_reader :labels
      # @return [Numeric, nil] the highest score `target:` gave (nil without a target)
      attr_reader :best
      # @return [Integer] draws made by filters and unique collections
      attr_reader :attempts
      # @return [Integer] of those, how many were refused
      attr_reader :refusals

      # @param label [#call, nil] the `label:` option
      # @param target [#call, nil] the `target:` option
      # @param mode [Symbol] the property's mode, to call them with its arguments' shape
      def initialize(label: nil, target: nil, mode: :single)
        @label = label
        @target = target
        @mode = mode
        @cases = 0
        @labels = Hash.new(0)
        @candidate = nil # the majority vote's candidate: the hash of a case's choices
        @votes = 0
        @samples = 0
        @best = nil
        @attempts = 0
        @refusals = 0
      end

      # @return [Boolean] whether every case must be {#record}ed (a label or a target), not only {#sample}d
      def every_case? = !(@label.nil? && @target.nil?)

      # Labels and scores one case, and samples it.
      # @param values [Array<Numeric>] the case's choices (equal choices, equal values)
      # @param args [Object] the case's arguments
      # @return [Numeric, nil] its score when there is a target
      # @raise [TypeError] when `label:` or `target:` answers something unusable
      def record(values, args)
        sample(values)
        classify(args) if @label
        score(args) if @target
      end

      # Counts a case's choices in the alikeness vote, by their hash (no
      # copy to keep, nothing for the GC).
      # @param values [Array<Numeric>]
      # @return [void]
      def sample(values)
        @samples += 1
        digest = values.hash
        if digest == @candidate then @votes += 1
        elsif @votes.zero?
          @candidate = digest
          @votes = 1
        else
          @votes -= 1
        end
      end

      # Counts a batch of cases drawn from choices.
      # @param count [Integer] cases in the batch
      # @param choices [Choices] the fresh source the check draws from (its refusals so far)
      # @return [void]
      def count(count, choices)
        @cases += count
        @attempts = choices.attempts
        @refusals = choices.refusals
      end

      # @return [Boolean] whether there is anything to show: labels, a target or a warning
      def noteworthy? = !@labels.empty? || !@best.nil? || !warnings.empty?

      # @return [Array<String>] health warnings, short
      def warnings
        warned = []
        if @attempts.positive? && @refusals > @attempts * REFUSED
          warned << "#{percent(@refusals, @attempts)} of filtered draws were refused (filter, unique): " \
                    "build values with map instead"
        end
        warned << alike_warning if alike?(@samples) { @votes + (@samples * (1 - ALIKE)) }
        label, count = @labels.max_by { |_, n| n }
        warned << "#{percent(count, @cases)} of cases had the label #{label.inspect}" if alike?(@cases) { count || 0 }
        warned
      end

      # @return [String] one line: labels by share, the target's best, warnings
      def summary
        parts = []
        parts << label_shares unless @labels.empty?
        parts << "target max #{@best.inspect}" unless @best.nil?
        parts.concat(warnings.map { |w| "warning: #{w}" })
        parts.join("; ")
      end

      private

      def classify(args)
        labels = call(@label, args)
        (labels.is_a?(::Array) ? labels : [labels]).each { |l| @labels[l] += 1 unless l.nil? }
      end

      def score(args)
        value = call(@target, args)
        unless value.is_a?(::Numeric) && value.real?
          raise TypeError, "target: must return a real Numeric, got #{value.inspect}"
        end

        @best = value if @best.nil? || value > @best
        value
      end

      # The option's Proc called with the arguments in the block's shape.
      def call(function, args)
        case @mode
        when :single then function.call(args)
        when :positional then function.call(*args)
        else function.call(**args)
        end
      end

      # The vote's count is a lower bound of the candidate's cases.
      def alike_warning
        share = @votes == @samples ? "all" : "at least #{percent(@votes, @samples)} of"
        "#{share} cases were the same value"
      end

      def alike?(whole)
        whole >= MIN_CASES && yield >= whole * ALIKE
      end

      def label_shares
        sorted = @labels.sort_by { |label, n| [-n, label.to_s] }
        shown = sorted.first(SHOWN).map { |label, n| "#{label} #{percent(n, @cases)}" }
        rest = sorted.drop(SHOWN).sum { |_, n| n }
        shown << "other #{percent(rest, @cases)}" if rest.positive?
        shown.join(", ")
      end

      def percent(part, whole) = "#{(100.0 * part / whole).round}%"
    end
  end
end
