# frozen_string_literal: true

module Heddle
  module Bench
    # Helpers shared by the suites in lib/heddle-bench/heddle/bench/suites/ (not suites themselves:
    # the harness loads only the folder's top-level files).
    module Suites
      # The code of one benchmark row as text: the untimed set-up, the timed part
      # and an untimed clean-up. The text is both printed beside the result and
      # compiled into the row's blocks, so what a reader sees is exactly what was
      # timed (the Concurrently reports generate their rows the same way).
      #
      # Set-up code runs with `ctx` (the trial's {Context}) in scope and may define
      # locals; the timed code and the clean-up see them.
      #
      # @example A rate row (the timed code is one batch of 100 executions)
      #   code = TimedCode.new(setup: "test_proc = proc{}\nbatch = Array.new(100)",
      #                        timed: "batch.each{ test_proc.call }")
      #   code.printed(:rate)  # => "test_proc = proc{}\nbatch = Array.new(100)\n\nwhile elapsed_seconds < 1\n  ..."
      #   body, cleanup = code.compile("demo").call(Heddle::Bench::Context.new)
      #   body.call            # runs 100 calls
      class TimedCode
        attr_reader :setup, :timed, :teardown

        # @param setup [String] untimed Ruby run once per trial
        # @param timed [String] the timed Ruby: one batch (rate) or the whole job (duration)
        # @param teardown [String, nil] untimed Ruby run after the trial (closing pipes)
        def initialize(setup:, timed:, teardown: nil)
          @setup = setup.to_s.chomp
          @timed = timed.to_s.chomp
          @teardown = teardown&.chomp
        end

        # @param kind [Symbol] :rate (the timed code repeats for a window) or :duration
        # @return [String] the code as the reports print it
        def printed(kind)
          timed = kind == :rate ? "while elapsed_seconds < 1\n#{indent(@timed)}\nend" : @timed
          [@setup, timed].reject(&:empty?).join("\n\n")
        end

        # Compiles the code into a lambda taking the trial's ctx and returning
        # [body, cleanup]: body runs the timed code, cleanup the teardown.
        #
        # @param label [String] the file name compiled code reports in backtraces
        # @return [Proc]
        def compile(label)
          source = "lambda do |ctx|\n#{@setup}\n[lambda do\n#{@timed}\nend, " \
                   "lambda do\n#{@teardown || 'nil'}\nend]\nend"
          # The printed code must be the timed code (docs/bench-concurrently.md), so
          # it is compiled from its text. Top-level binding: the Concurrently rows
          # call private Kernel methods (`wait 0`), as its own scripts do.
          TOPLEVEL_BINDING.eval(source, "(bench #{label})", 0)
        end

        private

        def indent(text) = text.lines.map { |line| "  #{line}" }.join.chomp
      end
    end
  end
end
