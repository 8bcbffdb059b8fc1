# frozen_string_literal: true

module Heddle
  module Bench
    # Number formatting shared by the terminal, Markdown and HTML reports.
    module Format
      module_function

      # @param value [Numeric, nil] executions per second
      # @return [String] e.g. "734.0k", "11.05M"
      def rate(value)
        return "–" if value.nil?

        abs = value.abs
        if abs >= 1e6 then format("%.2fM", value / 1e6)
        elsif abs >= 1e3 then format("%.1fk", value / 1e3)
        else
          format("%.1f", value)
        end
      end

      # @param value [Numeric, nil] seconds
      # @return [String] e.g. "0.8512 s", "12.3 µs"
      def seconds(value)
        return "–" if value.nil?

        abs = value.abs
        if abs >= 0.1 || abs.zero? then format("%.4f s", value)
        elsif abs >= 1e-3 then format("%.2f ms", value * 1e3)
        else
          format("%.2f µs", value * 1e6)
        end
      end

      # @param value [Numeric] seconds, for an axis tick
      # @return [String] e.g. "10 s", "0.5 s", "10 ms", "2.5 µs"
      def tick_seconds(value)
        return "0" if value.zero?
        return format("%<v>g s", v: value.round(6)) if value >= 0.1
        return format("%<v>g ms", v: (value * 1e3).round(6)) if value >= 1e-4

        format("%<v>g µs", v: (value * 1e6).round(6))
      end

      # @param value [Numeric, nil] the measured value of a row
      # @param rate [Boolean]
      # @return [String]
      def value(value, rate:) = rate ? rate(value) : seconds(value)

      # @param stats [Stats]
      # @param rate [Boolean]
      # @return [String] "median [min–max]"
      def spread(stats, rate:)
        return "–" unless stats.n.positive?

        "#{value(stats.median, rate: rate)} [#{value(stats.min, rate: rate)}–#{value(stats.max, rate: rate)}]"
      end

      # @param stats [Stats]
      # @return [String] "±2.1%" ("" for a single trial: no spread to show)
      def relative(stats)
        rel = stats.relative_stddev
        rel && stats.n > 1 ? format("±%.1f%%", rel * 100) : ""
      end

      # @param ratio [Float, nil] speed over the best peer's
      # @return [String] "1.25× faster", "2.00× slower", "–"
      def ratio(ratio)
        return "–" if ratio.nil?
        return "1.00× (same)" if (ratio - 1).abs < 0.005

        ratio > 1 ? format("%.2f× faster", ratio) : format("%.2f× slower", 1 / ratio)
      end

      # @param ratio [Float] a speed over another's
      # @param other [String] what the other is
      # @return [String] "1.25× faster than X", "2.00× slower than X", "as fast as X (1.00×)"
      def ratio_than(ratio, other)
        return "as fast as #{other} (1.00×)" if (ratio - 1).abs < 0.005

        "#{ratio(ratio)} than #{other}"
      end
    end
  end
end
