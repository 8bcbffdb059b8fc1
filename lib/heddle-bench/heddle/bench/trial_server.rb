# frozen_string_literal: true

require "json"

module Heddle
  module Bench
    # The child's side of a {TrialProcess}: one long-lived `ruby` that
    # loads heddle and one suite file once, then measures the trials it is
    # sent, one JSON spec a line on stdin, and answers each with one JSON
    # record a line on the results pipe (file descriptor 3; stdout is
    # discarded because suites may print). It ends at the end of stdin.
    #
    # A fresh `ruby` per trial cost ~0.4 s of CPU (~1 s of wall time here)
    # and `heddle bench --quick` spent most of its time starting them; one
    # child per (suite, isolation group, Ruby flags) starts once. Trials
    # that need a fresh process each (`isolate: :trial`, `--isolate`) are
    # forked from a child of their own (see #measure_forked).
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
        end_forked_trial_on_term
        @input.each_line do |line|
          spec = JSON.parse(line)
          record = spec["fork"] ? measure_forked(spec) : measure(spec)
          @output.write("#{JSON.generate(record)}\n")
          @output.flush
        end
      end

      private

      # A trial with "fork" runs in a process forked for it alone from this
      # one, which loads heddle and the suite and measures nothing itself:
      # every such trial starts from the same small heap (a shared child's
      # heap depends on the rows it ran before), for the cost of a fork
      # instead of a `ruby` start (~0.4 s of CPU here). Nor does it load any
      # row's requires: the fork does. A peer loaded here would be in every
      # later fork, heddle's included (Concurrently aliases Thread#[], where
      # heddle keeps per-fiber state: heddle's trials then failed with FiberError).
      def measure_forked(spec)
        row = find_row(spec, load: false) # the suite loaded here once, before the fork
        reader, writer = IO.pipe
        @forked = fork { run_forked(row, spec, reader, writer) }
        writer.close
        text = reader.read
        status = Process.wait2(@forked).last
        @forked = nil
        text.empty? ? failed(spec, "the forked trial exited with #{status.inspect} without a result") : JSON.parse(text)
      rescue StandardError, LoadError, Error => e
        failed(spec, "#{e.class}: #{e.message}")
      ensure
        reader&.close
      end

      def run_forked(row, spec, reader, writer)
        reader.close
        # No Timeout thread in the fork: the `heddle bench` process kills this
        # server, and its TERM trap the fork, when the trial outlives its limit.
        record = begin
          IsolatedTrial.load_requirements(row)
          IsolatedTrial.measure(row, spec, limit: false)
        rescue StandardError, LoadError, Error => e
          failed(spec, "#{e.class}: #{e.message}")
        end
        writer.write(JSON.generate(record))
        writer.close
      ensure
        exit!(0) # no at_exit handlers of the server's in the fork
      end

      # The parent ends a server whose trial outlived its limit with TERM:
      # the forked trial goes with it.
      def end_forked_trial_on_term
        trap("TERM") do
          Process.kill(:KILL, @forked) if @forked
          exit!(1)
        end
      end

      # The first trial of a row in this process warms it fully; later ones
      # re-warm as in the `heddle bench` process itself (see Runner).
      def measure(spec)
        row = find_row(spec)
        IsolatedTrial.measure(row, spec, warmup: warmup_for(row, spec))
      rescue StandardError, LoadError, Error => e
        failed(spec, "#{e.class}: #{e.message}")
      end

      def failed(spec, message)
        { "suite" => spec["suite"], "row" => spec["row"], "trial" => spec["trial"], "variant" => spec["variant"],
          "status" => "failed", "error" => message, "isolated" => true, "metrics" => {} }
      end

      def warmup_for(row, spec)
        warm = @warm.key?(row)
        @warm[row] = true
        return spec["warmup"] unless warm

        row.kind == :duration ? 0.0 : spec["seconds"] * Plan::REWARM_SHARE
      end

      def find_row(spec, load: true)
        load_suite(spec.fetch("suite_file"))
        IsolatedTrial.row_of(spec, load: load)
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
