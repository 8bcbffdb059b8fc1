# frozen_string_literal: true

require "json"

module Heddle
  module Bench
    # Runs one trial in another `ruby` process: for rows with `isolate:`
    # (many workers, global state, peers that patch Kernel) and for every row
    # when the run asks for other Ruby flags than this process has (--yjit,
    # --no-yjit, --both). The trial goes to the {TrialPool}'s long-lived
    # child of its (suite, isolation group, variant), or with fork: true
    # (rows with `isolate: :trial`, every row under `--isolate`) to a process
    # forked for it alone from the suite's forking child (see TrialServer).
    class IsolatedTrial
      # @param row [Row] its suite must have been loaded from a file
      # @param trial [Integer]
      # @param seconds [Float]
      # @param warmup [Float]
      # @param quick [Boolean]
      # @param keep_gc [Boolean]
      # @param variant [String] "yjit" or "no-yjit"
      # @param pool [TrialPool] where the children live
      # @param fork [Boolean] fork a process for this trial alone from the
      #   suite's forking child, not the row's shared child
      def initialize(row, trial:, seconds:, warmup:, quick:, keep_gc:, variant:, pool:, fork: false) # rubocop:disable Metrics/ParameterLists -- mirrors Trial
        @row = row
        @pool = pool
        @spec = { "suite_file" => row.suite.file, "suite" => row.suite.name, "row" => row.name, "trial" => trial,
                  "seconds" => seconds, "warmup" => warmup, "quick" => quick, "keep_gc" => keep_gc,
                  "variant" => variant, "fork" => fork }
      end

      # @return [Hash] the child's record, or a failed record saying why the child gave none
      def call
        return failed("isolated rows need their suite defined in a file (Heddle::Bench.suite in a .rb file)") unless
          @row.suite.file

        key = Plan.group_key(@row, @spec["variant"], fresh: @spec["fork"])
        limit = Trial.time_limit(@row, seconds: @spec["seconds"], warmup: @spec["warmup"], quick: @spec["quick"])
        result = @pool.call(key, @spec["variant"], @spec, limit)
        result.is_a?(Hash) ? result : failed(result).merge("ruby_flags" => flags)
      end

      # Measures the trial a spec describes, in this process; shared with
      # {TrialServer} (its shared and its forked trials).
      #
      # @param row [Row] as found by {.row_of}
      # @param spec [Hash] as built by {#initialize}
      # @param warmup [Float] the spec's, unless the caller knows the row is warm
      # @param limit [Boolean] false: the caller enforces the time limit (see Trial#initialize)
      # @return [Hash] the record, marked isolated, with its process's speed ({ProcessSpeed})
      def self.measure(row, spec, warmup: spec["warmup"], limit: true)
        speed = ProcessSpeed.ns.round(1) # before the trial, untimed
        Trial.new(row, trial: spec["trial"], seconds: spec["seconds"], warmup: warmup, quick: spec["quick"],
                       keep_gc: spec["keep_gc"], variant: spec["variant"], limit: limit).call
             .merge("isolated" => true, "process_speed_ns" => speed)
      end

      # The child's lookup, shared with {TrialServer}: the row a spec names,
      # with the row's requires loaded, or with +load: false+ only found (a
      # forking server loads no row's code: see TrialServer#measure_forked).
      #
      # @param spec [Hash] as built by {#initialize}; its suite file must be loaded already
      # @param load [Boolean] require the row's requires (else only check they can be)
      # @return [Row]
      # @raise [Error] when the suite has no such row or a require fails
      def self.row_of(spec, load: true)
        suite = Bench.registry.fetch(spec.fetch("suite"))
        row = suite.row_named(spec.fetch("row")) or raise Error, "trial process: no row #{spec['row'].inspect}"
        load_requirements(row, resolve_only: !load)
        row
      end

      # @param row [Row]
      # @param resolve_only [Boolean] see Row#load_requirements
      # @return [void]
      # @raise [Error] when a require fails
      def self.load_requirements(row, resolve_only: false)
        note = row.load_requirements(resolve_only: resolve_only)
        raise Error, note if note
      end

      private

      def flags = Plan::VARIANT_FLAGS.fetch(@spec["variant"], [])

      def failed(message)
        { "suite" => @row.suite.name, "row" => @row.name, "library" => @row.library, "compare" => @row.compare,
          "params" => Results.plain(@row.params), "kind" => @row.kind.to_s, "variant" => @spec["variant"],
          "trial" => @spec["trial"], "status" => "failed", "error" => message, "isolated" => true, "metrics" => {} }
      end
    end
  end
end
