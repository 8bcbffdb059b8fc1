# frozen_string_literal: true

module Heddle
  module Bench
    # Summary statistics of the trials of one row: median, min, max, mean and
    # the sample standard deviation (n - 1). The median sorts first (the
    # promise seed's analyser took the middle of an unsorted list).
    class Stats
      FIELDS = %i[n median min max mean stddev].freeze
      # @!attribute [r] n
      #   @return [Integer] how many values
      # @!attribute [r] median
      #   @return [Float, nil]
      # @!attribute [r] min
      #   @return [Numeric, nil]
      # @!attribute [r] max
      #   @return [Numeric, nil]
      # @!attribute [r] mean
      #   @return [Float, nil]
      # @!attribute [r] stddev
      #   @return [Float, nil] the sample standard deviation
      FIELDS.each { |field| attr_reader field }

      # @param fields [Hash] n, median, min, max, mean, stddev (n defaults to 0, the rest to nil)
      def initialize(**fields)
        FIELDS.each { |field| instance_variable_set(:"@#{field}", fields[field]) }
        @n ||= 0
      end

      # @param values [Array<Numeric>] one value per trial
      # @return [Stats] all nil fields (but n = 0) when values is empty
      # @example
      #   Heddle::Bench::Stats.of([3, 1, 2]).median # => 2.0
      def self.of(values)
        values = values.compact.map(&:to_f)
        return new(n: 0) if values.empty?

        new(n: values.size, median: median(values), min: values.min, max: values.max,
            mean: mean(values), stddev: stddev(values))
      end

      # @param values [Array<Numeric>]
      # @return [Float, nil] the middle value, or the mean of the two middle ones
      def self.median(values)
        return nil if values.empty?

        sorted = values.sort
        mid = sorted.size / 2
        sorted.size.odd? ? sorted[mid].to_f : (sorted[mid - 1] + sorted[mid]) / 2.0
      end

      # @param values [Array<Numeric>]
      # @return [Float, nil]
      def self.mean(values)
        values.empty? ? nil : values.sum.to_f / values.size
      end

      # Sample standard deviation (divides by n - 1); 0.0 for a single value.
      #
      # @param values [Array<Numeric>]
      # @return [Float, nil]
      def self.stddev(values)
        return nil if values.empty?
        return 0.0 if values.size == 1

        m = mean(values)
        Math.sqrt(values.sum { |v| (v - m)**2 } / (values.size - 1))
      end

      # Mann-Whitney U test, two-sided, normal approximation with tie
      # correction: the p-value that two samples come from one distribution.
      #
      # @param first [Array<Numeric>]
      # @param second [Array<Numeric>]
      # @return [Float, nil] p in [0, 1], nil when a sample is empty
      def self.mann_whitney_p(first, second)
        return nil if first.empty? || second.empty?

        ranks = rank_all(first.map { |v| [v.to_f, 0] } + second.map { |v| [v.to_f, 1] })
        normal_p(u_statistic(ranks, first.size), first.size, second.size, ranks.map { |(value, _), _| value })
      end

      # Average ranks (1-based) for tied values.
      def self.rank_all(pairs)
        sorted = pairs.sort_by(&:first)
        ranks = []
        i = 0
        while i < sorted.size
          j = i
          j += 1 while j + 1 < sorted.size && sorted[j + 1][0] == sorted[i][0]
          (i..j).each { |k| ranks << [sorted[k], (i + j + 2) / 2.0] }
          i = j + 1
        end
        ranks
      end

      # U of the first sample: its rank sum minus the smallest possible.
      def self.u_statistic(ranks, size)
        ranks.sum { |(_, group), rank| group.zero? ? rank : 0 } - (size * (size + 1) / 2.0)
      end

      # Two-sided p of U under the normal approximation, with continuity and tie corrections.
      def self.normal_p(u_stat, size1, size2, values)
        variance = size1 * size2 / 12.0 * (size1 + size2 + 1 - tie_correction(values))
        return 1.0 if variance <= 0

        distance = (u_stat - (size1 * size2 / 2.0)).abs - 0.5
        [Math.erfc([distance, 0].max / Math.sqrt(variance * 2)), 1.0].min
      end

      # Sum of (t³ - t) over groups of t tied values, over n(n - 1).
      def self.tie_correction(values)
        total = values.size
        values.tally.values.sum { |t| (t**3) - t } / (total * (total - 1).to_f)
      end
      private_class_method :rank_all, :u_statistic, :normal_p, :tie_correction

      # @return [Float, nil] stddev as a fraction of the mean (0.05 = 5 %)
      def relative_stddev
        return nil if stddev.nil? || mean.nil? || mean.zero?

        stddev / mean
      end

      # @return [Hash] plain data for JSON
      def to_h
        FIELDS.to_h { |f| [f.to_s, public_send(f)] }
      end
    end
  end
end
