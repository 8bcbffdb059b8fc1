# frozen_string_literal: true

module Heddle
  module Check
    # Runs one check: generates values in the driver (so they depend only on
    # the seed and the run index), hands them to a runner in batches, and on
    # failure shrinks the choices behind the failing value ({Shrinker}),
    # evaluating candidates through the same runner.
    class Engine
      # Runs generated per batch; each batch is one round of work for the workers.
      WINDOW = 100
      # Inline, the first batch is 8 runs and each next one twice as many: a
      # check that fails early does not pay for generating the runs after its
      # failure, one that passes makes 4 batches of 100 runs.
      INLINE_WINDOW = 8

      # @param property [Property]
      # @param options [Options]
      def initialize(property, options)
        @property = property
        @options = options
      end

      # @return [Result]
      # @raise [HarnessError, Heddle::Workers::Error] for errors of the machinery
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

      # Runs are drawn from one Choices, cleared for each (the hot path of a
      # passing check keeps nothing); the failing run is drawn again, from the
      # state its batch started with, to keep its choices.
      def run_phase(runner)
        rng = Random.new(@options.seed)
        source = Choices.fresh(rng)
        inline = runner.is_a?(Runners::Inline)
        window = inline ? INLINE_WINDOW : WINDOW
        first = 0
        while first < @options.runs
          start = rng.dup
          cases = draw_batch(source, first, [window, @options.runs - first].min)
          failure = runner.first_failure(cases, @deadline)
          return [failure[0], redraw(start, first, failure[0]), failure[1]] if failure

          first += cases.size
          window = [window * 2, WINDOW].min if inline
        end
        nil
      end

      # @return [Array<(Integer, Object)>] [index, args] of runs first.., count of them
      def draw_batch(source, first, count)
        Array.new(count) { |i| [first + i, @property.args(draw(source, first + i))] }
      end

      def draw(choices, index)
        @property.arbitrary.generate(choices.reset!, Sizing.for_run(index, @options.runs, @options.max_size))
      end

      # Run index drawn again from the Random state of its batch's start.
      # @return [Shrinker::Candidate]
      def redraw(rng, first, index)
        source = Choices.fresh(rng)
        (first...index).each { |i| draw(source, i) }
        choices = Choices.fresh(rng)
        raw = draw(choices, index)
        Shrinker::Candidate.new(choices, raw, @property.args(raw))
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
        cases = Array.new(batch.size) { |i| [i, batch[i].args] }
        runner.first_failure(cases, @deadline)
      end
    end
  end
end
