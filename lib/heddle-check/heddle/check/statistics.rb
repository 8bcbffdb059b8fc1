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
    # same choices, or the same label).
    class Statistics
      # Share of refused draws above which a check is warned about.
      REFUSED = 0.5
      # Share of cases that, alike, make a check warned about.
      ALIKE = 0.9
      # Fewer cases than this say nothing about alikeness (a check of 3 runs).
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
        @shapes = Hash.new(0)
        @best = nil
        @attempts = 0
        @refusals = 0
      end

      # Counts one case.
      # @param shape [Integer] a hash of the case's choices (equal choices, equal values)
      # @param args [Object] the case's arguments
      # @return [Numeric, nil] its score when there is a target
      # @raise [TypeError] when `label:` or `target:` answers something unusable
      def record(shape, args)
        @cases += 1
        @shapes[shape] += 1
        classify(args) if @label
        score(args) if @target
      end

      # @param choices [Choices] the fresh source a check drew from
      # @return [void]
      def count_refusals(choices)
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
        warned << "#{percent(alike, @cases)} of cases were the same value" if alike? { alike }
        label, count = @labels.max_by { |_, n| n }
        warned << "#{percent(count, @cases)} of cases had the label #{label.inspect}" if alike? { count || 0 }
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

      def alike = @shapes.each_value.max || 0

      def alike?
        @cases >= MIN_CASES && yield >= @cases * ALIKE
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
