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

      # Units of seconds, largest first, with their size in seconds.
      SECOND_UNITS = { "s" => 1.0, "ms" => 1e-3, "µs" => 1e-6 }.freeze

      # The one unit for a column of seconds: the smallest in which its largest
      # value stays under 1,000 (so 0.5 s beside 176 µs reads "500 ms" and "0.176 ms").
      #
      # @param values [Array<Numeric, nil>] seconds
      # @return [String] "s", "ms" or "µs"
      def seconds_unit(values)
        top = values.compact.map(&:abs).max.to_f
        SECOND_UNITS.reverse_each.find { |_, size| top < size * 1000 }&.first || "s"
      end

      # @param value [Numeric, nil] seconds
      # @param unit [String, nil] one of {SECOND_UNITS} (a column's, see {.seconds_unit}); nil: the value's own
      # @return [String] e.g. "0.8512 s", "12.3 µs"; in a unit, three significant digits: "0.176 ms", "1.75 s"
      def seconds(value, unit: nil)
        return "–" if value.nil?
        return in_unit(value, unit) if unit

        abs = value.abs
        if abs >= 0.1 || abs.zero? then format("%.4f s", value)
        elsif abs >= 1e-3 then format("%.2f ms", value * 1e3)
        else
          format("%.2f µs", value * 1e6)
        end
      end

      # @param value [Numeric] seconds @param unit [String] one of {SECOND_UNITS}
      # @return [String] three significant digits or more in that unit: "0.176 ms", "41.4 ms", "0.0414 s"
      def in_unit(value, unit)
        scaled = value / SECOND_UNITS.fetch(unit)
        return "0 #{unit}" if scaled.zero?

        digits = (2 - Math.log10(scaled.abs).floor).clamp(0, 6)
        format("%.#{digits}f %s", scaled, unit)
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
      # @param unit [String, nil] for seconds, the column's unit ({.seconds_unit})
      # @return [String]
      def value(value, rate:, unit: nil) = rate ? rate(value) : seconds(value, unit: unit)

      # @param stats [Stats]
      # @param rate [Boolean]
      # @param unit [String, nil] for seconds, the column's unit ({.seconds_unit})
      # @return [String] "median [min–max]"
      def spread(stats, rate:, unit: nil)
        return "–" unless stats.n.positive?

        median, min, max = [stats.median, stats.min, stats.max].map { |v| value(v, rate: rate, unit: unit) }
        "#{median} [#{min}–#{max}]"
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
