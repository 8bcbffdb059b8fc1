# frozen_string_literal: true

require "forwardable"

module Heddle
  module Bench
    # A named list of rows measured the same way (see docs/CONTRACTS.md,
    # "Bench suites"). Setters double as getters: `s.title "x"` sets,
    # `s.title` reads.
    class Suite
      extend Forwardable

      KINDS = %i[rate duration].freeze
      # Trials per row when the suite does not say.
      DEFAULT_TRIALS = 5
      # Seconds a full run may spend on one suite unless it says otherwise;
      # with ~10 suites this keeps `heddle bench` within its 15 minutes.
      DEFAULT_BUDGET = 75.0

      attr_reader :name, :rows, :file
      # @return [Presentation] what the suite tells its report beyond the numbers
      attr_reader :presentation

      # The presentation DSL, declared in the suite's file after its rows:
      # {Presentation#group}, {Presentation#answer}, {Presentation#backends}, {Presentation#reference}.
      def_delegators :@presentation, :group, :answer, :backends, :reference

      # @param name [Symbol, String]
      # @param file [String, nil] the file that defines the suite (isolated trials load it)
      # @yieldparam suite [Suite]
      def initialize(name, file: nil)
        raise ArgumentError, "suite name must match /\\A[a-z0-9_]+\\z/, got #{name.inspect}" unless
          name.to_s.match?(/\A[a-z0-9_]+\z/)

        @name = name.to_s
        @file = file
        @rows = []
        @kind = :rate
        @trials = DEFAULT_TRIALS
        @budget = DEFAULT_BUDGET
        @presentation = Presentation.new(self)
        yield self if block_given?
      end

      # Keeps only the rows whose name matches +pattern+, for a run of
      # `heddle bench --rows` (the trials' own processes look rows up by name
      # in a fresh load of the suite file, so only this process's plan changes).
      # @param pattern [Regexp]
      # @return [Suite] self
      def keep_rows(pattern)
        @rows.select! { |row| pattern.match?(row.name) }
        self
      end

      # @param text [String, nil] @return [String] a one-line title
      def title(text = nil) = attribute(:@title, text) || name

      # @param file [String, nil] @return [String, nil] the seed report the suite reproduces
      def seed(file = nil) = attribute(:@seed, file)

      # @param text [String, nil] @return [String, nil] what a duration measures, e.g. "seconds for 900,000 promises"
      def unit(text = nil) = attribute(:@unit, text) || (kind == :rate ? "executions per second" : "seconds")

      # @param text [String, nil] @return [String, nil] a paragraph shown under the title in reports
      def description(text = nil) = attribute(:@description, text)

      # @param value [Symbol, nil] :rate or :duration
      # @return [Symbol]
      # @raise [ArgumentError] for another kind
      def kind(value = nil)
        return @kind if value.nil?
        raise ArgumentError, "kind must be one of #{KINDS.join(', ')}, got #{value.inspect}" unless
          KINDS.include?(value.to_sym)

        @kind = value.to_sym
      end

      # @param count [Integer, nil] default trials per row
      # @return [Integer]
      def trials(count = nil)
        return @trials if count.nil?
        raise ArgumentError, "trials must be a positive Integer, got #{count.inspect}" unless
          count.is_a?(Integer) && count.positive?

        @trials = count
      end

      # @param seconds [Numeric, nil] time a full run may spend on the suite
      # @return [Float]
      def budget(seconds = nil)
        return @budget if seconds.nil?
        raise ArgumentError, "budget must be positive seconds, got #{seconds.inspect}" unless
          seconds.is_a?(Numeric) && seconds.positive?

        @budget = seconds.to_f
      end

      # @param x [Symbol, nil] the param to draw lines over
      # @return [Hash, nil] { x: Symbol } or nil for bars
      def chart(x: nil) # rubocop:disable Naming/MethodParameterName -- x: is the contract's name (docs/CONTRACTS.md)
        @chart = { x: x.to_sym } if x
        @chart
      end

      # Adds a row; see {Row#initialize} for the options.
      #
      # @param name [String] unique within the suite
      # @yieldparam row [Row]
      # @return [Row]
      # @raise [ArgumentError] for a duplicate name
      def row(name, library:, **options)
        raise ArgumentError, "suite #{self.name} already has a row named #{name.inspect}" if row_named(name)

        row = Row.new(self, name, library: library, **options)
        yield row if block_given?
        rows << row
        row
      end

      # @param name [String]
      # @return [Row, nil]
      def row_named(name)
        rows.find { |r| r.name == name.to_s }
      end

      # @return [Hash] the suite as plain data (for the JSON results)
      def to_h
        { "name" => name, "title" => title, "seed" => seed, "kind" => kind.to_s, "unit" => unit,
          "description" => description, "chart" => chart && { "x" => chart[:x].to_s },
          "rows" => rows.map(&:to_h) }.merge(presentation.to_h)
      end

      private

      def attribute(ivar, value)
        instance_variable_set(ivar, value.to_s) unless value.nil?
        instance_variable_get(ivar)
      end
    end
  end
end
