# frozen_string_literal: true

module Heddle
  module Bench
    # Runs a plan: every (suite, row, variant, trial) in the plan's random
    # order, in this process or in a fresh one, and gathers the records with
    # the environment into {Results}. Prints the seed and the estimate first.
    class Runner
      # @param suites [Array<Suite>]
      # @param seed [Integer]
      # @param variants [Array<String>] "yjit" / "no-yjit"
      # @param trials [Integer, nil]
      # @param seconds [Float, nil]
      # @param quick [Boolean]
      # @param keep_gc [Boolean] keep GC on in rate windows
      # @param io [IO] where the estimate and progress go
      # @param load_errors [Hash{String => String}] suite files that failed to load, for the report
      # @param deadline [Float, nil] seconds after which no further trial starts (nil: none)
      # @param isolate_all [Boolean] run every trial in a fresh process
      # @param sampler [CpuSampler] reads the run's own CPU and the machine's, trial by trial
      def initialize(suites, seed:, variants:, trials: nil, seconds: nil, quick: false, keep_gc: false, io: $stderr, # rubocop:disable Metrics/ParameterLists -- one per CLI option
                     load_errors: {}, deadline: nil, isolate_all: false, sampler: CpuSampler.new)
        @suites = suites
        @options = { seed: seed, variants: variants, trials: trials, seconds: seconds, quick: quick, keep_gc: keep_gc,
                     isolate_all: isolate_all }
        @io = io
        @load_errors = load_errors
        @deadline = deadline
        @sampler = sampler
      end

      # @return [Results]
      def call
        environment = Environment.capture(keep_gc: @options[:keep_gc])
        @first_reading = @reading = @sampler.read
        skipped = check_requirements
        plan = fit_rows(Plan.new(@suites, **@options.except(:keep_gc), skipped: skipped), skipped)
        announce(plan)
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        records = execute(plan)
        finish(environment, plan, Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, records)
        Results.new(data(plan, environment, skipped, records))
      end

      # @param left [Array<Hash>] skipped rows' data whose reason is {Plan::LEFT_OUT}
      # @return [String] one line for them: how many, from which suites, and the command that measures them
      def self.left_out_line(left)
        suites = left.group_by { |s| s["suite"] }.transform_values(&:size)
        rows = left.size == 1 ? "1 row off the first screen was" : "#{left.size} rows off the first screen were"
        "#{rows} #{Plan::LEFT_OUT} " \
          "(#{suites.map { |name, n| "#{name} #{n}" }.join(', ')}): `heddle bench #{suites.keys.join(' ')}` " \
          "measures them"
      end

      # @param record [Hash]
      # @return [String] a trial's result in the seeds' words
      def self.describe(record)
        return "FAILED: #{record['error']}" unless record["status"] == "ok"
        return Format.seconds(record["value"]) if record["kind"] == "duration"

        format("%<n>d executions in %<s>.4f seconds", n: record["executions"], s: record["wall_seconds"])
      end

      private

      # Records the end of the run; elapsed against estimated tells a suite
      # author whether the row estimates (and so the budgets) hold.
      def finish(environment, plan, elapsed, records)
        environment["load_average_after"] = Environment.load_average
        environment["cpu_share"] = CpuSampler.share(@first_reading, @sampler.read)
        environment["elapsed_seconds"] = elapsed.round(3)
        environment["estimated_seconds"] = plan.estimate.round(3)
        @io.puts "#{@stopped}: writing the #{records.size} trials measured so far" if @stopped
        past_deadline if @deadline && elapsed > @deadline
        @io.puts "measured #{records.size} trials in #{Progress.format_seconds(elapsed)} " \
                 "(estimated #{Progress.format_seconds(plan.estimate)}); per suite, taken/estimated: " +
                 suite_times(plan, records)
      end

      def past_deadline
        @io.puts "past the #{Progress.format_seconds(@deadline)} deadline: the first #{RoundFit::KEPT} rounds, " \
                 "which always run, took longer"
      end

      def suite_times(plan, records)
        taken = records.group_by { |r| r["suite"] }.transform_values { |rs| rs.sum { |r| r["trial_seconds"].to_f } }
        @suites.map do |suite|
          "#{suite.name} #{Progress.format_seconds(taken.fetch(suite.name, 0))}/" \
            "#{Progress.format_seconds(plan.estimate_suite(suite))}"
        end.join(", ")
      end

      # A plan whose smallest sizes overrun the deadline leaves out rows off the
      # first screen (said up front and in the report), never the headline's.
      def fit_rows(plan, skipped)
        left = @deadline ? plan.rows_to_leave_out(@deadline) : []
        return plan if left.empty?

        left.each do |row|
          skipped[row] = "#{Plan::LEFT_OUT} (#{Progress.format_seconds(@deadline)}): not on the first screen; " \
                         "`heddle bench #{row.suite.name}` measures it"
        end
        Plan.new(@suites, **@options.except(:keep_gc), skipped: skipped)
      end

      def check_requirements
        all_foreign = @options[:isolate_all] || @options[:variants].all? { |variant| Plan.foreign?(variant) }
        @suites.flat_map(&:rows).each_with_object({}) do |row, skipped|
          note = row.load_requirements(resolve_only: row.isolate? || all_foreign)
          skipped[row] = note if note
        end
      end

      def announce(plan)
        if @options[:quick]
          @io.puts "heddle bench --quick: a smoke run, one short trial a row: it shows that every row runs and " \
                   "judges nothing"
        end
        @io.puts "heddle bench: seed #{plan.seed} (repeat with --seed #{plan.seed}); #{plan.runs.size} trials " \
                 "in random order; GC #{@options[:keep_gc] ? 'on' : 'off (--gc keeps it on)'} in rate windows; " \
                 "estimated #{Progress.format_seconds(plan.estimate)}#{deadline_note(plan)}"
        @suites.each { |suite| @io.puts suite_estimate(plan, suite) }
        announce_left_out(plan)
        announce_skipped(plan)
        @load_errors.each { |file, message| @io.puts "  #{File.basename(file)} not loaded: #{message}" }
      end

      # One line for the rows missing gems skipped (not one per row), then the rows skipped for other reasons.
      def announce_skipped(plan)
        missing = MissingGems.new(skipped_data(plan.skipped))
        @io.puts "  #{missing.line}" if missing.any?
        left, other = missing.other_rows.partition { |s| s["reason"].start_with?(Plan::LEFT_OUT) }
        @io.puts "  #{self.class.left_out_line(left)}" unless left.empty?
        other.each { |s| @io.puts "  #{s['suite']}/#{s['row']}: #{s['reason']}" }
      end

      def skipped_data(skipped)
        skipped.map { |row, note| { "suite" => row.suite.name, "row" => row.name, "reason" => note } }
      end

      def announce_left_out(plan)
        @io.puts "  #{plan.left_out} rows left out under --quick (quick: false)" if plan.left_out.positive?
      end

      # Says up front what the deadline can do: drop rounds past each row's third, never stop the first three.
      def deadline_note(plan)
        return "" unless @deadline

        deadline = Progress.format_seconds(@deadline)
        if plan.estimate <= @deadline
          return ", within the #{deadline} deadline (--deadline: once every row has #{RoundFit::KEPT} trials, " \
                 "later rounds that the trials' times say would end past it are dropped)"
        end

        ", past the #{deadline} deadline (--deadline): the first #{RoundFit::KEPT} trials of every row always run, " \
          "later rounds only while the trials' times say they end within it"
      end

      def suite_estimate(plan, suite)
        trials, seconds = plan.size_of(suite)
        window = suite.kind == :rate ? " x #{seconds}s windows" : ""
        estimate = plan.estimate_suite(suite)
        format("  %-22<name>s %2<rows>d rows x %<trials>d trial%<s>s%<window>s ~ %<estimate>s%<over>s",
               name: suite.name, rows: suite.rows.size, trials: trials, s: trials == 1 ? "" : "s", window: window,
               estimate: Progress.format_seconds(estimate), over: over_budget(suite, estimate))
      end

      # Tells a suite's author when even its smallest size overruns its own budget.
      def over_budget(suite, estimate)
        return "" if @options[:quick] || estimate <= suite.budget * 1.1

        " (over its #{Progress.format_seconds(suite.budget)} budget: fewer rows, smaller jobs or a larger s.budget)"
      end

      # The trial's record with its place in the run, the 1-minute load
      # average as it started, and the shares of the machine's CPU its own
      # process tree and other work took while it ran (the report warns about
      # other work only: the load average counts the trial's own threads too).
      def measure_loaded(run, warm, order)
        load = Environment.load_average&.first
        before = @reading
        record = measure(run, warm)
        @reading = @sampler.read
        record.merge("order" => order, "load" => load, "cpu" => CpuSampler.share(before, @reading))
      end

      # Ctrl-C stops the run but keeps what was measured: the report is
      # written from the trials done so far and says why it stopped (the
      # plan's rounds keep the trials per row even). The deadline stops
      # nothing part-way: before each round past the first three, RoundFit
      # drops the later rounds that the trials' own times say would end past it.
      def execute(plan)
        progress = Progress.new(@io, total: plan.runs.size, estimate: plan.estimate)
        @fit = RoundFit.new(plan.runs, deadline: @deadline)
        run_rounds(progress)
      rescue Interrupt
        @stopped = "interrupted"
        @records
      ensure
        progress&.close
        @pool&.close
      end

      def run_rounds(progress)
        warm = {}
        @records = []
        started = clock
        index = 0
        while @fit.runs[index]
          refitted(progress, clock - started) if @fit.fit!(index, clock - started)
          run = @fit.runs[index] or break

          @records << timed(run, warm, progress, index)
          index += 1
        end
        @records
      end

      def timed(run, warm, progress, index)
        began = clock
        progress.start(run)
        record = measure_loaded(run, warm, index + 1)
        progress.finish(run, self.class.describe(record))
        @fit.record(run, clock - began)
        record
      end

      # Says which rounds were dropped and why, once per cut.
      def refitted(progress, elapsed)
        last = @fit.runs.last.trial
        @fit.runs.each { |run| run.trials = [run.trials, last].min }
        progress.resize(@fit.runs.size)
        @io.puts "  the #{Progress.format_seconds(elapsed)} so far say later rounds would end past the " \
                 "#{Progress.format_seconds(@deadline)} deadline (--deadline): every row stops at #{last} trials " \
                 "(#{@fit.dropped} trials fewer than planned)"
      end

      def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)

      def measure(run, warm)
        key = [run.row, run.variant]
        warmup = warmup_for(run, warm.key?(key))
        warm[key] = true
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        record = trial_for(run, warmup).call
        record.merge("isolated" => run.isolated,
                     "trial_seconds" => (Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).round(4))
      end

      def trial_for(run, warmup)
        options = { trial: run.trial, seconds: run.seconds, warmup: warmup, quick: @options[:quick],
                    keep_gc: @options[:keep_gc], variant: run.variant }
        return Trial.new(run.row, **options) unless run.isolated

        IsolatedTrial.new(run.row, **options, pool: (@pool ||= TrialPool.new), fork: run.fresh)
      end

      # A full window (or warm-up pass) the first time a row runs in a
      # process; later trials of a warm row re-warm briefly (rate) or not at
      # all (duration, whose jobs are long). A shared child gets the full
      # warm-up and makes the same choice itself (TrialServer).
      def warmup_for(run, warm)
        return run.seconds if run.isolated || !warm

        run.row.kind == :duration ? 0.0 : run.seconds * Plan::REWARM_SHARE
      end

      # A suite's trials per row as run (fewer than planned when RoundFit dropped rounds) and rate window.
      def size_data(plan, suite)
        trials, seconds = plan.size_of(suite)
        trials = [trials, @fit.runs.last.trial].min if @fit&.dropped&.positive?
        { "trials" => trials, "seconds" => seconds }
      end

      # @return [Hash, nil] when rounds were dropped to end within the deadline: how many and of what plan
      def fitted_data(plan)
        return nil unless @fit&.dropped&.positive?

        { "deadline" => @deadline, "planned_trials" => plan.runs.size, "dropped_trials" => @fit.dropped,
          "rounds" => @fit.runs.last.trial, "planned_rounds" => plan.runs.last.trial }
      end

      def data(plan, environment, skipped, records)
        { "schema" => Results::SCHEMA, "seed" => plan.seed, "options" => Results.plain(@options),
          "sizes" => @suites.to_h { |s| [s.name, size_data(plan, s)] }, "fitted" => fitted_data(plan),
          "environment" => environment, "suites" => @suites.to_h { |s| [s.name, s.to_h] },
          "skipped" => skipped_data(skipped),
          "load_errors" => @load_errors, "stopped" => @stopped, "records" => records }
      end
    end
  end
end
