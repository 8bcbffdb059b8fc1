# frozen_string_literal: true

module Loom
  module Check
    # Runs one check: generates values in the driver (so they depend only on
    # the seed and the run index), hands them to a runner in batches, and on
    # failure shrinks the choices behind the failing value ({Shrinker}),
    # evaluating candidates through the same runner.
    class Engine
      # Runs generated per batch; each batch is one round of work for the workers.
      WINDOW = 100
      # Inline, runs are generated 8 at a time: a check that fails early does
      # not pay for generating the runs after its failure (recording choices
      # makes generation cost more than the cheap properties it feeds).
      INLINE_WINDOW = 8

      # @param property [Property]
      # @param options [Options]
      def initialize(property, options)
        @property = property
        @options = options
      end

      # @return [Result]
      # @raise [HarnessError, Loom::Workers::Error] for errors of the machinery
      def run
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        @deadline = started + @options.timeout if @options.timeout
        runner = Runners.for(@property, @options)
        failure = run_phase(runner)
        outcome = failure ? shrink_phase(runner, *failure) : { runs: @options.runs }
        result = Result.new(options: @options, seconds: Process.clock_gettime(Process::CLOCK_MONOTONIC) - started,
                            **outcome)
        runner.close
        result
      ensure
        runner&.close(abort: true) unless result
      end

      private

      def run_phase(runner)
        rng = Random.new(@options.seed)
        window = runner.is_a?(Runners::Inline) ? INLINE_WINDOW : WINDOW
        0.step(@options.runs - 1, window) do |first|
          cases = generate(rng, first, [window, @options.runs - first].min)
          failure = runner.first_failure(cases.each_with_index.map { |c, i| [first + i, c.args] }, @deadline)
          return [failure[0], cases[failure[0] - first], failure[1]] if failure
        end
        nil
      end

      def generate(rng, first, count)
        arbitrary = @property.arbitrary
        Array.new(count) do |i|
          choices = Choices.fresh(rng)
          raw = arbitrary.generate(choices, Sizing.for_run(first + i, @options.runs, @options.max_size))
          Shrinker::Candidate.new(choices, raw, @property.args(raw))
        end
      end

      def shrink_phase(runner, index, candidate, error)
        size = Sizing.for_run(index, @options.runs, @options.max_size)
        start = initial(candidate, size)
        shrinker = Shrinker.new(start, error, max_steps: @options.max_shrinks, batch_size: runner.batch_size,
                                              replay: ->(values, hole) { replay(values, hole, size) },
                                              test: ->(batch) { test(runner, batch) }).run
        { runs: index + 1, shrinks: shrinker.steps, original: @property.display(candidate.args),
          counterexample: @property.display(shrinker.best.args), error: shrinker.error }
      end

      # The failing case with its choices replayed in full (fresh draws
      # record values only); its raw value and arguments stay the ones that
      # failed, whatever a replay makes of them.
      def initial(candidate, size)
        replayed = replay(candidate.choices.values, nil, size)
        replayed ? Shrinker::Candidate.new(replayed.choices, candidate.raw, candidate.args) : candidate
      end

      # A candidate replayed from choices; nil when they make no value (a
      # filter gives up, a bind block raises on a shrunk source).
      def replay(values, hole, size)
        choices = Choices.replay(values, hole)
        raw = @property.arbitrary.generate(choices, size)
        Shrinker::Candidate.new(choices, raw, @property.args(raw))
      rescue StandardError
        nil
      end

      def test(runner, batch)
        runner.first_failure(batch.each_with_index.map { |c, i| [i, c.args] }, @deadline)
      end
    end
  end
end
