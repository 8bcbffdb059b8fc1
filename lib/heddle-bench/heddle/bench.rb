# frozen_string_literal: true

# `require`, not require_relative, for heddle's own files: installed, the
# runtime (heddle) and the harness (heddle-bench) are separate gems.
require "heddle/error"
require "heddle/version"

require_relative "bench/answer"
require_relative "bench/backend_table"
require_relative "bench/bar_chart"
require_relative "bench/browser_check"
require_relative "bench/chart"
require_relative "bench/chromium"
require_relative "bench/cli"
require_relative "bench/comparison"
require_relative "bench/context"
require_relative "bench/cpu_sampler"
require_relative "bench/environment"
require_relative "bench/error"
require_relative "bench/findings"
require_relative "bench/first_screen"
require_relative "bench/format"
require_relative "bench/gem_paths"
require_relative "bench/group"
require_relative "bench/html_first_screen"
require_relative "bench/html_report"
require_relative "bench/isolated_trial"
require_relative "bench/process_speed"
require_relative "bench/line_chart"
require_relative "bench/load_note"
require_relative "bench/speed_note"
require_relative "bench/markdown_report"
require_relative "bench/missing_gems"
require_relative "bench/plan"
require_relative "bench/presentation"
require_relative "bench/progress"
require_relative "bench/render_command"
require_relative "bench/reports"
require_relative "bench/results"
require_relative "bench/results_block"
require_relative "bench/round_fit"
require_relative "bench/row"
require_relative "bench/row_summary"
require_relative "bench/runner"
require_relative "bench/stats"
require_relative "bench/suite"
require_relative "bench/table_units"
require_relative "bench/terminal_report"
require_relative "bench/trial"
require_relative "bench/trial_pool"
require_relative "bench/trial_process"
require_relative "bench/trial_server"
require_relative "bench/verdict"
require_relative "bench/version"

module Heddle
  # The benchmark harness behind `heddle bench`: suites of rows measured by
  # rate (executions per second) or duration (seconds for a fixed job), run
  # in a seeded random order, written as JSON and rendered as Markdown, HTML
  # and terminal tables. See docs/bench.md for the method and the schema.
  #
  # @example Define a suite (one file per suite in lib/heddle-bench/heddle/bench/suites/)
  #   Heddle::Bench.suite(:baseline) do |s|
  #     s.title "Physical limits"
  #     s.kind :rate
  #     s.row "proc.call", library: "ruby" do |r|
  #       r.setup { proc {} }
  #       r.batch { |pr, ctx| ctx.batch_size.times { pr.call } }
  #     end
  #   end
  module Bench
    # Where the suites shipped with heddle live.
    SUITES_DIR = File.expand_path("bench/suites", __dir__)

    class << self
      # Defines (or redefines) a suite and registers it under its name.
      #
      # @param name [Symbol, String] the suite's name, as typed on the command line
      # @yieldparam suite [Suite] the suite, to describe with the DSL
      # @return [Suite]
      # @example
      #   Heddle::Bench.suite(:demo) { |s| s.kind :rate }
      def suite(name, &)
        defined = Suite.new(name, file: caller_locations(1, 1).first&.absolute_path, &)
        registry[defined.name] = defined
      end

      # @return [Hash{String => Suite}] the suites defined so far, by name
      def registry
        @registry ||= {}
      end

      # Loads every suite file of a folder. A file that fails to load is
      # remembered in {load_errors} instead of stopping the others.
      #
      # @param dir [String] the folder of suite files
      # @return [Hash{String => Suite}] the registry
      def load_suites(dir = SUITES_DIR)
        load_core
        Dir[File.join(dir, "*.rb")].each { |file| load_suite_file(file) }
        registry
      end

      # @return [Hash{String => String}] suite file => error message, for files that failed to load
      def load_errors
        @load_errors ||= {}
      end

      # Loads heddle's core for the suites. A core that fails to load (a part
      # half-written) is noted in {load_errors} so that the harness, the
      # baseline and the peers' rows still run; heddle's rows then fail alone.
      #
      # @return [Boolean] whether the core loaded
      def load_core
        require "heddle"
        true
      rescue StandardError, ScriptError => e
        load_errors["lib/heddle/heddle.rb"] =
          "heddle's core failed to load: #{e.class}: #{e.message.lines.first&.strip}"
        false
      end

      private

      def load_suite_file(file)
        load file
      rescue Exception => e # rubocop:disable Lint/RescueException -- a broken suite file (even a SyntaxError) must not stop the others
        raise if e.is_a?(Interrupt) || e.is_a?(SystemExit)

        load_errors[file] = "#{e.class}: #{e.message}"
      end
    end
  end
end
