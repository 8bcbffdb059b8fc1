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
      # Without a label or target, every SAMPLE-th case is sampled for alikeness ({Statistics}): looking at
      # every case cost a cheap check a tenth of its time (the `checks` benchmark's simple row).
      SAMPLE = 4

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
        outcome = outcome(runner)
        result = Result.new(options: @options, seconds: Process.clock_gettime(Process::CLOCK_MONOTONIC) - started,
                            statistics: @statistics, **outcome)
        runner.close
        result
      ensure
        runner&.close(abort: true) unless result
      end

      private

      # The cases of the failure store first: the first that still fails is
      # shrunk (the others are kept for the next run), and those that pass
      # are dropped; then fresh runs. A new failure's shrunk case joins the store.
      def outcome(runner)
        @statistics = Statistics.new(label: @options.label, target: @options.target, mode: @property.mode)
        @targeting = Targeting.new(@options.seed, @options.runs) if @options.target
        store = FailureStore.for(@property, @options)
        kept = store ? store.load : []
        failure, rest = replay_phase(runner, kept)
        failure ||= run_phase(runner)
        outcome = failure ? shrink_phase(runner, *failure) : { runs: @options.runs }
        remember(store, kept, outcome, rest)
      end

      # Tries the kept cases in one batch.
      # @return [(Array, Array), nil] the failure (as {#run_phase}'s) and the kept cases after it (untried)
      def replay_phase(runner, kept)
        return nil if kept.empty?

        candidates = kept.map { |values, size| replay(values, nil, size) }
        cases = candidates.each_with_index.filter_map { |c, i| [i, c.args] if c }
        index, error = runner.first_failure(cases, @deadline)
        return nil unless error

        [[index, candidates[index], error, kept[index][1], true], kept.drop(index + 1)]
      end

      # Writes the store when something changed: a failure (its shrunk case
      # first) or kept cases that passed.
      # @return [Hash] the outcome, with where the failure is stored
      def remember(store, kept, outcome, rest)
        failing = outcome.delete(:kept)
        return outcome unless store

        if failing
          store.save([failing] + (rest || []))
          outcome[:stored] = store.path
        elsif !kept.empty?
          store.save([])
        end
        outcome
      end

      # Runs are drawn from one Choices, cleared for each (the hot path of a
      # passing check keeps nothing); the failing run is drawn again, from the
      # state its batch started with, to keep its choices.
      # @return [(Integer, Shrinker::Candidate, Exception, Integer, Boolean), nil]
      #   the failing run's index, case, error and size; false: not from the store
      def run_phase(runner)
        rng = Random.new(@options.seed)
        source = Choices.fresh(rng)
        inline = runner.is_a?(Runners::Inline)
        window = inline ? INLINE_WINDOW : WINDOW
        first = 0
        while first < @options.runs
          start = rng.dup
          cases = draw_batch(source, first, [window, @options.runs - first].min)
          @statistics.count(cases.size, source)
          failure = runner.first_failure(cases, @deadline)
          return failed(start, first, *failure) if failure

          first += cases.size
          window = [window * 2, WINDOW].min if inline
        end
        nil
      end

      def failed(start, first, index, error)
        unless @drawn
          return [index, redraw(start, first, index), error, Sizing.for_run(index, @options.runs, @options.max_size),
                  false]
        end

        values, size = @drawn[index - first]
        candidate = replay(values, nil, size) or raise HarnessError, "a failing case could not be built again " \
                                                                     "from its choices: is the generator pure?"
        [index, candidate, error, size, false]
      end

      # @return [Array<(Integer, Object)>] [index, args] of runs first.., count of them
      def draw_batch(source, first, count)
        return steered_batch(source, first, count) if @targeting
        return labelled_batch(source, first, count) if @statistics.every_case?

        Array.new(count) do |i|
          index = first + i
          args = @property.args(draw(source, index))
          @statistics.sample(source.values) if (index % SAMPLE).zero?
          [index, args]
        end
      end

      def labelled_batch(source, first, count)
        Array.new(count) do |i|
          args = @property.args(draw(source, first + i))
          @statistics.record(source.values, args)
          [first + i, args]
        end
      end

      # With a target: cases nudged from the best so far ({Targeting}) or
      # drawn afresh, each case's choices kept (a failing case is replayed
      # from them, as it may not come from the Random).
      def steered_batch(source, first, count)
        @drawn = Array.new(count)
        Array.new(count) do |i|
          choices, raw, size = nudged(first + i) || fresh(source, first + i)
          args = @property.args(raw)
          values = choices.values.dup
          @drawn[i] = [values, size]
          @targeting.offer(@statistics.record(values, args), values, size)
          [first + i, args]
        end
      end

      # @return [(Choices, Object, Integer), nil] a nudged case; nil when it makes no value
      def nudged(index)
        values, size = @targeting.nudged(index)
        return nil unless values

        choices = Choices.replay(values)
        [choices, @property.arbitrary.generate(choices, size), size]
      rescue StandardError
        nil
      end

      def fresh(source, index)
        [source, draw(source, index), Sizing.for_run(index, @options.runs, @options.max_size)]
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

      def shrink_phase(runner, index, candidate, error, size, replayed) # rubocop:disable Metrics/ParameterLists -- a failure's parts
        start = initial(candidate, size)
        shrinker = Shrinker.new(start, error, max_steps: @options.max_shrinks, batch_size: runner.batch_size,
                                              replay: ->(values, hole) { replay(values, hole, size) },
                                              test: ->(batch) { test(runner, batch) }).run
        { runs: index + 1, shrinks: shrinker.steps, original: @property.display(candidate.args),
          counterexample: @property.display(shrinker.best.args), error: shrinker.error, replayed: replayed,
          kept: [shrinker.best.choices.values.dup, size] }
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
