# frozen_string_literal: true

module Loom
  module Check
    # Runs one check: generates values in the driver (so they depend only on
    # the seed and the run index), hands them to a runner in batches, and on
    # failure shrinks greedily: the first failing candidate of the
    # arbitrary's list (lowest index) replaces the counterexample, until no
    # candidate fails or max_shrinks steps are done.
    class Engine
      # Runs generated per batch; each batch is one round of work for the workers.
      WINDOW = 100

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
        0.step(@options.runs - 1, WINDOW) do |first|
          raws = generate(rng, first, [WINDOW, @options.runs - first].min)
          failure = runner.first_failure(raws.each_with_index.map { |r, i| [first + i, @property.args(r)] }, @deadline)
          return [failure[0], raws[failure[0] - first], failure[1]] if failure
        end
        nil
      end

      def generate(rng, first, count)
        arbitrary = @property.arbitrary
        Array.new(count) { |i| arbitrary.generate(rng, Sizing.for_run(first + i, @options.runs, @options.max_size)) }
      end

      def shrink_phase(runner, index, raw, error)
        original = @property.args(raw)
        shrinks = 0
        while shrinks < @options.max_shrinks
          found = shrink_step(runner, raw)
          break unless found

          raw, error = found
          shrinks += 1
        end
        { runs: index + 1, shrinks: shrinks, original: @property.display(original),
          counterexample: @property.display(@property.args(raw)), error: error }
      end

      def shrink_step(runner, raw)
        @property.shrink(raw).each_slice(runner.batch_size).each do |slice|
          failure = runner.first_failure(slice.each_with_index.map { |r, i| [i, @property.args(r)] }, @deadline)
          return [slice[failure[0]], failure[1]] if failure
        end
        nil
      end
    end
  end
end
