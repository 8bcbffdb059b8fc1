# frozen_string_literal: true

module Heddle
  module Check
    # The outcome of {Heddle::Check.check}: passed or failed, with everything
    # needed to understand and replay a failure.
    class Result
      # @return [Integer] the seed; pass it back as `seed:` to replay
      attr_reader :seed
      # @return [Integer] runs made (for a failure: up to and including the failing run)
      attr_reader :runs
      # @return [Integer] successful shrink steps
      attr_reader :shrinks
      # @return [Object, nil] the minimal failing arguments (nil when passed)
      attr_reader :counterexample
      # @return [Object, nil] the first failing arguments, before shrinking
      attr_reader :original
      # @return [Exception, nil] the error the counterexample raised
      attr_reader :error
      # @return [Symbol] the backend the check ran on
      attr_reader :worker
      # @return [Integer] the number of workers
      attr_reader :size
      # @return [Float] wall-clock seconds the check took
      attr_reader :seconds
      # @return [Statistics, nil] what the check generated: labels, the target's best, health warnings
      attr_reader :statistics
      # @return [String, nil] the failure store file the failing case was saved in (nil: store off, or passed)
      attr_reader :stored
      # @return [Boolean] whether the failure was a case of the failure store, replayed before any fresh run
      attr_reader :replayed

      # @param options [Options]
      # @param seconds [Float]
      # @param runs [Integer]
      # @param shrinks [Integer]
      # @param counterexample [Object]
      # @param original [Object]
      # @param error [Exception, nil] nil when the property held
      # @param statistics [Statistics, nil]
      # @param stored [String, nil] the failure store file
      # @param replayed [Boolean] the failure came from the store
      def initialize(options:, seconds:, runs:, shrinks: 0, counterexample: nil, original: nil, error: nil, # rubocop:disable Metrics/ParameterLists -- a record
                     statistics: nil, stored: nil, replayed: false)
        @statistics = statistics
        @stored = stored
        @replayed = replayed
        @seed = options.seed
        @worker = options.worker
        @size = options.size
        @seconds = seconds
        @runs = runs
        @shrinks = shrinks
        @counterexample = counterexample
        @original = original
        @error = error
      end

      # @return [Boolean] true when every run held
      def passed? = @error.nil?

      # @return [Boolean] true when a run failed
      def failed? = !passed?

      # How to pass a seed back, by the helper that ran the check.
      REPLAY = "Heddle::Check.assert / Heddle::Check.check"

      # @param replay [String] the call a seed should be passed to (the test
      #   helpers name themselves: `assert_property`, `check_property` / `hold`)
      # @return [String] a report of the failure (or a one-line summary when
      #   passed); the error's backtrace shows the property's frames, not
      #   heddle's or the test framework's
      def report(replay: REPLAY)
        return "Property held for #{@runs} runs (seed #{@seed}, worker #{@worker.inspect})" if passed?

        <<~TEXT
          Property failed after #{plural(@runs, 'run')} and #{plural(@shrinks, 'shrink')} (seed #{@seed}, worker #{@worker.inspect}).
          Counterexample: #{@counterexample.inspect}
          First failure:  #{@original.inspect}
          Error: #{@error.class}: #{@error.message}
          #{Backtrace.user(@error.backtrace, 5).map { |l| "  #{l}" }.join("\n")}
          #{replay_line(replay)}
        TEXT
      end

      # @return [String] the report
      def to_s = report

      # @return [String]
      def inspect
        "#<Heddle::Check::Result #{passed? ? 'passed' : 'failed'} runs=#{@runs} shrinks=#{@shrinks} seed=#{@seed}>"
      end

      private

      # A case of the store is not the seed's: the store replays it (as Hypothesis does not offer a seed then).
      def replay_line(replay)
        return "Replay: found by replaying #{@stored}; it is replayed first on every run until it passes" if @replayed

        line = "Replay: pass seed: #{@seed} to #{replay}, or set HEDDLE_CHECK_SEED=#{@seed}"
        @stored ? "#{line} (saved in #{@stored}, replayed first next run)" : line
      end

      def plural(count, word) = count == 1 ? "1 #{word}" : "#{count} #{word}s"
    end
  end
end
