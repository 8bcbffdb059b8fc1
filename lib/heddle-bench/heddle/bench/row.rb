# frozen_string_literal: true

module Heddle
  module Bench
    # One row of a suite: one piece of code measured under one configuration.
    # Built by {Suite#row}; its blocks are set with the DSL methods below.
    class Row
      # Seconds a duration trial is assumed to take when the row gives no
      # `estimate:`; only used for the up-front estimate and the budget.
      DEFAULT_ESTIMATE = 1.0

      attr_reader :name, :library, :compare, :params, :requires, :series, :suite

      # @param suite [Suite] the suite the row belongs to
      # @param name [String] unique within the suite
      # @param library [String] "heddle", "ruby" or the peer's gem name
      # @param compare [String, nil] rows with the same compare do the same job
      # @param params [Hash] configuration, handed to the blocks as ctx.params
      # @param requires [Array<String>] files to require first; a LoadError skips the row
      # @param isolate [Boolean, Symbol, String] run the trials in another ruby process: true shares one child
      #   per (suite, variant) with the suite's other isolated rows, a name shares it with the rows of that
      #   name only, :trial starts a fresh process for every trial (for rows whose leftovers would skew the next)
      # @param series [String, nil] line name in a chart over a param (default: library and other params)
      # @param estimate [Float, nil] expected seconds per duration trial (full run), for the budget
      # @param keep_gc [Boolean, nil] true keeps GC on in this row's rate window
      # @param timeout [Float, nil] seconds after which an isolated trial is killed and failed
      # @param quick [Boolean] false leaves the row out of `--quick` runs (a smoke run needs one size of a
      #   job, not every worker count)
      # @param warmups [Integer] untimed passes of a duration row before its timed run (default 1): a job
      #   that a seed measured after benchmark-ips's warm-up takes more, so YJIT has compiled it too
      def initialize(suite, name, library:, compare: nil, params: {}, requires: [], isolate: false, # rubocop:disable Metrics/ParameterLists -- the DSL's keywords
                     series: nil, estimate: nil, keep_gc: nil, timeout: nil, quick: true, warmups: 1)
        raise ArgumentError, "row name must be a non-empty String, got #{name.inspect}" if name.to_s.empty?

        @suite = suite
        @name = name.to_s
        @library = library.to_s
        @compare = compare&.to_s
        @params = params.to_h.transform_keys(&:to_sym)
        @requires = Array(requires).map(&:to_s)
        @isolate = isolation(isolate)
        @series = series&.to_s
        @estimate = estimate
        @keep_gc = keep_gc
        @timeout = timeout
        @quick = quick != false
        @warmups = Row.warmups!(warmups)
        @blocks = {}
      end

      # Sets (with an argument) or returns the code printed beside the result.
      #
      # @param text [String, nil] exactly what is timed
      # @return [String]
      def code(text = nil)
        @code = text.to_s if text
        @code || ""
      end

      # @yieldparam ctx [Context]
      # @yieldreturn [Object] the state handed to the other blocks (untimed, timed apart)
      # @return [Proc, nil]
      def setup(&block) = define(:setup, block)

      # The timed job of a :duration row.
      # @yieldparam state [Object] @yieldparam ctx [Context]
      # @yieldreturn [Hash, Object] optional metrics; metrics[:failures] > 0 fails the trial
      # @return [Proc, nil]
      def run(&block) = define(:run, block)

      # One batch of ctx.batch_size executions of a :rate row.
      # @yieldparam state [Object] @yieldparam ctx [Context]
      # @return [Proc, nil]
      def batch(&block) = define(:batch, block)

      # Untimed clean-up, called even when the trial failed.
      # @yieldparam state [Object] @yieldparam ctx [Context]
      # @return [Proc, nil]
      def teardown(&block) = define(:teardown, block)

      # @return [Boolean] whether the trials run in another ruby process
      def isolate? = @isolate ? true : false

      # @return [Boolean] whether `--quick` runs the row
      def quick? = @quick

      # @return [Boolean] whether each trial needs a fresh ruby process of its own (`isolate: :trial`)
      def fresh_process? = @isolate == "trial"

      # @return [String, nil] the name of the child process this row's isolated trials share
      def isolation_group
        return nil unless @isolate

        @isolate == true ? "isolated" : @isolate
      end

      # @return [Boolean, nil] the row's own GC choice for the rate window, nil to follow the run
      attr_reader :keep_gc

      # @return [Float, nil] the kill timeout for isolated trials
      attr_reader :timeout

      # @return [Integer] untimed passes before a duration row's timed run
      attr_reader :warmups

      # @param warmups [Object]
      # @return [Integer] warmups
      # @raise [ArgumentError] unless a positive Integer
      def self.warmups!(warmups)
        return warmups if warmups.is_a?(Integer) && warmups.positive?

        raise ArgumentError, "warmups must be a positive Integer, got #{warmups.inspect}"
      end

      # @return [Symbol] :rate or :duration, the suite's kind
      def kind = suite.kind

      # @param quick [Boolean]
      # @return [Float] the estimated seconds of the measured part of one duration trial
      def estimate(quick: false)
        full = (@estimate || DEFAULT_ESTIMATE).to_f
        quick ? [full / 10, 0.2].min : full
      end

      # Requires the row's files, or with resolve_only only checks that they
      # can be found: rows that run in a fresh process are isolated so their
      # libraries (some patch Kernel or IO) stay out of this one.
      #
      # @param resolve_only [Boolean] find the files without loading them
      # @return [String, nil] nil when all are there, else a note saying what is missing
      def load_requirements(resolve_only: false)
        requires.each do |file|
          next require(file) unless resolve_only
          raise LoadError, "cannot load such file -- #{file}" unless findable?(file)
        end
        nil
      rescue LoadError => e
        "skipped: #{e.message} (requires: #{requires.join(', ')})"
      end

      # @param file [String] a feature, as given to require
      # @return [Boolean] whether require could load it: on the load path, or in
      #   an installed gem RubyGems would activate (heddle run from an installed
      #   gem, without Bundler)
      def findable?(file)
        return true if $LOAD_PATH.resolve_feature_path(file)

        # Gem by gem, skipping one whose extension is not built (a checkout's
        # heddle under Bundler), of which find_by_path warns (rubygems#8754).
        Gem::Specification.any? { |spec| !spec.missing_extensions? && spec.contains_requirable_file?(file) }
      rescue LoadError
        false
      end

      # @return [Hash] the row as plain data (for the JSON results)
      def to_h
        { "name" => name, "library" => library, "compare" => compare, "params" => Results.plain(params),
          "requires" => requires, "isolate" => isolate?,
          "isolation" => isolation_group, "series" => series, "code" => code }
      end

      private

      # true, false, or the name of a group (a String) for a Symbol or String.
      def isolation(value) = [true, false, nil].include?(value) ? value == true : value.to_s

      def define(phase, block)
        @blocks[phase] = block if block
        @blocks[phase]
      end
    end
  end
end
