# frozen_string_literal: true

require "json"

module Loom
  module Bench
    # The child's side of a {WorkerProcess}: one long-lived `ruby` that
    # loads loom and one suite file once, then measures the trials it is
    # sent, one JSON spec a line on stdin, and answers each with one JSON
    # record a line on the results pipe (file descriptor 3; stdout is
    # discarded because suites may print). It ends at the end of stdin.
    #
    # A fresh `ruby` per trial cost ~0.4 s of CPU (~1 s of wall time here)
    # and `loom bench --quick` spent most of its time starting them; one
    # child per (suite, isolation group, Ruby flags) starts once.
    class TrialServer
      # @param input [IO] JSON specs, one a line
      # @param output [IO] JSON records, one a line
      def initialize(input, output)
        @input = input
        @output = output
        @warm = {}
        @loaded = {}
      end

      # Serves until the input ends.
      #
      # @return [void]
      def call
        @input.each_line do |line|
          @output.write("#{JSON.generate(measure(JSON.parse(line)))}\n")
          @output.flush
        end
      end

      private

      # The first trial of a row in this process warms it fully; later ones
      # re-warm as in the `loom bench` process itself (see Runner).
      def measure(spec)
        row = find_row(spec)
        warmup = warmup_for(row, spec)
        Trial.new(row, trial: spec["trial"], seconds: spec["seconds"], warmup: warmup, quick: spec["quick"],
                       keep_gc: spec["keep_gc"], variant: spec["variant"]).call.merge("isolated" => true)
      rescue StandardError, LoadError, Error => e
        { "suite" => spec["suite"], "row" => spec["row"], "trial" => spec["trial"], "variant" => spec["variant"],
          "status" => "failed", "error" => "#{e.class}: #{e.message}", "isolated" => true, "metrics" => {} }
      end

      def warmup_for(row, spec)
        warm = @warm.key?(row)
        @warm[row] = true
        return spec["warmup"] unless warm

        row.kind == :duration ? 0.0 : spec["seconds"] * Plan::REWARM_SHARE
      end

      def find_row(spec)
        load_suite(spec.fetch("suite_file"))
        IsolatedTrial.row_of(spec)
      end

      def load_suite(file)
        return if @loaded[file]

        Bench.load_core
        load file
        @loaded[file] = true
      end
    end
  end
end
