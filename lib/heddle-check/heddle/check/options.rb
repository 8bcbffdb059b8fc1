# frozen_string_literal: true

require "etc"
require_relative "sizing"

module Heddle
  module Check
    # The options of one check, validated at the door: an unknown or
    # ill-typed option is an ArgumentError naming it (Pbt silently ignores a
    # misspelt `num_run:`).
    class Options
      # Backends of Heddle::Pool, plus the fork-per-batch baseline used by the `checks` benchmark.
      WORKERS = %i[inline fiber thread process ractor fork_per_batch redis].freeze
      # Defaults: 100 runs as Pbt; 1000 shrink steps bound a pathological shrink.
      # store: nil follows HEDDLE_CHECK_STORE, else the default folder ({FailureStore}).
      DEFAULTS = { worker: :inline, size: nil, runs: 100, seed: nil, max_shrinks: 1000, timeout: nil,
                   max_size: Sizing::MAX_SIZE, url: nil, store: nil, label: nil, target: nil }.freeze
      # What each option must be, as a test and the words of the error.
      RULES = {
        worker: [->(v) { WORKERS.include?(v) }, "one of #{WORKERS.map(&:inspect).join(', ')}"],
        size: [->(v) { v.is_a?(Integer) && v.positive? }, "a positive Integer"],
        runs: [->(v) { v.is_a?(Integer) && v.positive? }, "a positive Integer"],
        seed: [->(v) { v.is_a?(Integer) }, "an Integer"],
        max_shrinks: [->(v) { v.is_a?(Integer) && !v.negative? }, "an Integer >= 0"],
        max_size: [->(v) { v.is_a?(Integer) && !v.negative? }, "an Integer >= 0"],
        timeout: [->(v) { v.nil? || (v.is_a?(Numeric) && v.positive?) }, "nil or positive seconds"],
        url: [->(v) { v.nil? || v.is_a?(String) }, "a redis:// URL (worker: :redis only)"],
        store: [->(v) { [nil, true, false].include?(v) || (v.is_a?(String) && !v.empty?) },
                "true, false or a folder (String)"],
        label: [->(v) { v.nil? || v.respond_to?(:call) }, "nil or a Proc of the arguments returning labels"],
        target: [->(v) { v.nil? || v.respond_to?(:call) }, "nil or a Proc of the arguments returning a Numeric"]
      }.freeze

      # @!attribute [r] worker
      #   @return [Symbol] one of WORKERS
      # @!attribute [r] size
      #   @return [Integer, nil] workers (nil: the backend's default)
      # @!attribute [r] runs
      #   @return [Integer]
      # @!attribute [r] seed
      #   @return [Integer, nil]
      # @!attribute [r] max_shrinks
      #   @return [Integer]
      # @!attribute [r] timeout
      #   @return [Numeric, nil] seconds
      # @!attribute [r] url
      #   @return [String, nil] the Redis URL (worker: :redis)
      # @!attribute [r] max_size
      #   @return [Integer]
      # @!attribute [r] store
      #   @return [Boolean, String, nil] the failure store: off (false), a folder, or the default (nil, true)
      # @!attribute [r] label
      #   @return [Proc, nil] classifies each case's arguments ({Statistics})
      # @!attribute [r] target
      #   @return [Proc, nil] scores each case's arguments; generation steers towards higher scores ({Targeting})
      DEFAULTS.each_key { |option| attr_reader option }

      # @param given [Hash] the caller's options
      # @return [Options] validated, with defaults filled in
      # @raise [ArgumentError] for an unknown key or a bad value
      def self.parse(given)
        unknown = given.keys - DEFAULTS.keys
        unless unknown.empty?
          raise ArgumentError, "unknown option(s) #{unknown.map(&:inspect).join(', ')}; " \
                               "known: #{DEFAULTS.keys.join(', ')}"
        end

        new(DEFAULTS.merge(given))
      end

      # @param values [Hash] every option
      # @raise [ArgumentError] for a bad value
      def initialize(values)
        @worker = values[:worker].is_a?(String) ? values[:worker].to_sym : values[:worker]
        @size = values[:size] || self.class.default_size(@worker)
        @seeded = !values[:seed].nil? || ENV.key?("HEDDLE_CHECK_SEED")
        @seed = values[:seed] || self.class.default_seed
        %i[runs max_shrinks timeout max_size url store label target].each do |k|
          instance_variable_set(:"@#{k}", values[k])
        end
        check_values!
        check_url!
      end

      # Every option against its rule.
      # @return [void]
      # @raise [ArgumentError] naming the first bad option and its value
      def check_values!
        RULES.each do |name, (test, want)|
          value = public_send(name)
          raise ArgumentError, "#{name}: must be #{want}, got #{value.inspect}" unless test.call(value)
        end
      end

      # @return [Boolean] whether the seed was chosen (seed: or HEDDLE_CHECK_SEED): a replay of that
      #   run alone, so the failure store is neither read nor written (as Hypothesis does with a seed)
      def seeded? = @seeded

      # url: goes with worker: :redis, and only with it.
      # @return [void]
      # @raise [ArgumentError]
      def check_url!
        raise ArgumentError, "url: is for worker: :redis, which needs it" if (@worker == :redis) ^ !@url.nil?
      end

      # @param worker [Symbol]
      # @return [Integer] 1 worker inline, else one per processor
      def self.default_size(worker) = worker == :inline ? 1 : Etc.nprocessors

      # Fresh seeds are below this: short enough to read and type (Random.new_seed has 39 digits).
      SEEDS = 2**32

      # @return [Integer] HEDDLE_CHECK_SEED when set (to replay a failure), else a fresh random seed below SEEDS
      def self.default_seed
        env = ENV.fetch("HEDDLE_CHECK_SEED", nil)
        env ? Integer(env) : Random.new_seed % SEEDS
      end
    end
  end
end
