# frozen_string_literal: true

require "json"
require "fileutils"

module Heddle
  module Bench
    # The data of one run: environment, options, the suites' descriptions
    # (with each row's code) and one record per trial. Reports are rendered
    # from this alone, so a run can be re-rendered or compared later without
    # loading the suites or measuring again. Schema: docs/bench.md.
    class Results
      SCHEMA = "heddle-bench/1"
      FILE = "results.json"
      # A suite's keys that say how to present its rows, not what was measured ({Presentation}).
      PRESENTATION = %w[groups answers backends references].freeze

      attr_reader :data

      # @param data [Hash] parsed JSON with string keys
      def initialize(data)
        @data = data
      end

      # Reads a results file, or the results.json of a folder.
      #
      # @param path [String] a .json file or a results folder
      # @return [Results]
      # @raise [Error] when the file is missing or not heddle results
      def self.read(path)
        file = File.directory?(path) ? File.join(path, FILE) : path
        raise Error, "no results at #{file}: give a results folder or its results.json" unless File.file?(file)

        data = JSON.parse(File.read(file))
        raise Error, "#{file} is not heddle bench results (schema #{data['schema'].inspect}, expected #{SCHEMA})" unless
          data.is_a?(Hash) && data["schema"] == SCHEMA

        new(data)
      rescue JSON::ParserError => e
        raise Error, "#{file} is not valid JSON: #{e.message[0, 200]}"
      end

      # Converts symbols (keys and values) to strings, recursively, for JSON.
      #
      # @param value [Object]
      # @return [Object]
      def self.plain(value)
        case value
        when Hash then value.to_h { |k, v| [k.to_s, plain(v)] }
        when Array then value.map { |v| plain(v) }
        else json_scalar?(value) ? value : value.to_s # symbols, NaN, anything else
        end
      end

      # @param value [Object]
      # @return [Boolean] whether JSON writes value as it is (a Float must be finite)
      def self.json_scalar?(value)
        [Integer, String, TrueClass, FalseClass, NilClass].any? { |type| value.is_a?(type) } ||
          (value.is_a?(Float) && value.finite?)
      end

      # @return [Array<Hash>] one record per trial
      def records = data.fetch("records", [])

      # @return [Hash{String => Hash}] suite name => suite description
      def suites = data.fetch("suites", {})

      # @return [Hash] the environment of the run
      def environment = data.fetch("environment", {})

      # @return [Array<Hash>] rows skipped with their reason
      def skipped = data.fetch("skipped", [])

      # @return [Hash{String => String}] suite files that failed to load
      def load_errors = data.fetch("load_errors", {})

      # @return [Array<String>] the Ruby variants measured, in a stable order
      def variants = records.map { |r| r["variant"] }.uniq.sort

      # The same results with the suites' presentation (groups, answers,
      # backend columns, seed figures, and a seed name the run lacked) taken
      # from the suite files as they are now, so a run made before a suite
      # declared its groups renders with them. Suites not in registry keep
      # what the run recorded.
      #
      # @param registry [Hash{String => Suite}] the loaded suites
      # @return [Results]
      def with_presentation(registry)
        described = suites.to_h do |name, suite|
          current = registry[name]
          next [name, suite] unless current

          seed = suite["seed"].to_s.empty? ? { "seed" => current.seed } : {}
          [name, suite.merge(current.presentation.to_h, seed)]
        end
        self.class.new(data.merge("suites" => described))
      end

      # @return [String] pretty JSON, each trial record on a line of its own (a
      #   run's file stays readable and a diff of two runs shows one line a trial)
      def to_json(*_args)
        head = JSON.pretty_generate(data.except("records"))
        records = data.fetch("records", []).map { |record| "    #{JSON.generate(record)}" }.join(",\n")
        head.sub(/\n\}\z/, %(,\n  "records": [\n#{records}\n  ]\n}))
      end

      # Writes results.json into a folder (created when missing).
      #
      # @param dir [String]
      # @return [String] the file written
      def write(dir)
        FileUtils.mkdir_p(dir)
        file = File.join(dir, FILE)
        File.write(file, to_json)
        file
      end
    end
  end
end
