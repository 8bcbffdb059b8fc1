# frozen_string_literal: true

module Heddle
  module Bench
    # The list of every (suite, row, variant, trial) run, shuffled into a
    # seeded random order so that background noise spreads over all
    # configurations instead of hitting one (the method of
    # more-fiber-benchmarking.txt). Also sizes each suite to its time budget.
    #
    # The order is shuffled in rounds: round k holds trial k of every
    # configuration, in a random order. A slow spell of the machine then
    # lands on all configurations alike (a full shuffle only makes that
    # likely), and a run stopped early (Ctrl-C, the deadline) still has every
    # configuration measured as often as the others, give or take one.
    class Plan
      # One run: a trial of a row under a Ruby variant.
      # isolated: in another ruby process; fresh: in a new one for this trial alone.
      Run = Struct.new(:suite, :row, :variant, :trial, :trials, :seconds, :isolated, :fresh, keyword_init: true) do
        # @return [String] "suite/row [variant]"
        def label = "#{suite.name}/#{row.name} [#{variant}]"
      end

      # Ruby variants: the label and the command-line flags that select it.
      VARIANT_FLAGS = { "yjit" => ["--yjit", "--yjit-exec-mem-size=64"], "no-yjit" => ["--disable-yjit"] }.freeze
      # Under --quick: few trials and short windows, so all suites run in under a minute.
      QUICK_TRIALS = 1
      QUICK_SECONDS = 0.05
      # Seconds the whole default run is planned to take. The issue asks for
      # all suites in under 15 minutes; on a loaded machine suites took up to
      # 1.5x their estimates, and the 14-minute deadline catches the rest.
      # When the suites' budgets add up to more, all shrink alike.
      TOTAL_BUDGET = 600.0
      # The budget never shrinks a suite below these (fewer says too little).
      MIN_TRIALS = 3
      MIN_SECONDS = 0.5
      # Seconds a fresh `ruby -Ilib exe/heddle` trial process takes to start (bundler, heddle, the suite; YJIT
      # reserves its code memory): 0.6–2 s here depending on the load.
      SPAWN_SECONDS = 1.0
      # Seconds to fork a fresh process for one trial from a suite's forking child (TrialServer).
      FORK_SECONDS = 0.05
      # Later warm-ups of a row already warm in this process are this share of the window.
      REWARM_SHARE = 0.2
      # Under load, suites have taken up to 1.5× their estimates: a plan fits a deadline when its
      # estimate times this does.
      OVERRUN = 1.5
      # Why a row was left out by {#rows_to_leave_out}, as the skipped rows' reason starts.
      LEFT_OUT = "left out to end within the deadline"

      attr_reader :runs, :seed, :skipped

      # @param suites [Array<Suite>]
      # @param seed [Integer] the shuffle's seed
      # @param variants [Array<String>] Ruby variants ("yjit", "no-yjit")
      # @param trials [Integer, nil] trials per row (nil: each suite's own, fitted to its budget)
      # @param seconds [Float, nil] rate window (nil: 1 s, fitted to the budget)
      # @param quick [Boolean]
      # @param skipped [Hash{Row => String}] rows not to run, with the reason
      # @param isolate_all [Boolean] run every trial in a fresh process
      def initialize(suites, seed:, variants:, trials: nil, seconds: nil, quick: false, skipped: {}, # rubocop:disable Metrics/ParameterLists -- one per CLI option
                     isolate_all: false)
        @isolate_all = isolate_all
        @seed = seed
        @variants = variants
        @quick = quick
        @skipped = skipped
        @suites = suites
        @suites_rows = suites.flat_map(&:rows)
        @budget_scale = [TOTAL_BUDGET / suites.sum(&:budget).clamp(1, nil), 1.0].min
        @sizes = fit(suites, trials, seconds)
        random = Random.new(seed)
        @runs = build(suites).group_by(&:trial).sort.flat_map { |_, round| round.shuffle(random: random) }
      end

      # @param suite [Suite]
      # @return [Array(Integer, Float)] trials per row and rate window for the suite
      def size_of(suite) = @sizes.fetch(suite)

      # @return [Integer] rows left out of a --quick run (`quick: false`)
      def left_out = @quick ? @suites_rows.count { |row| !row.quick? && !skipped.key?(row) } : 0

      # @return [Float] estimated seconds for the whole plan
      def estimate
        warm = {}
        runs.sum { |run| estimate_run(run, warm) }
      end

      # @param suite [Suite]
      # @return [Float] estimated seconds for one suite
      def estimate_suite(suite)
        warm = {}
        runs.select { |run| run.suite == suite }.sum { |run| estimate_run(run, warm) }
      end

      # When even the smallest sizes do not fit a deadline, the rows off the
      # report's first screen to leave out, the costliest first, until the
      # rest does (with {OVERRUN} to spare): the first screen's rows, their
      # peers and baselines always run, with all their trials.
      #
      # @param deadline [Float] seconds the run should end within
      # @return [Array<Row>] the rows to leave out (none when the plan fits, or under --quick)
      def rows_to_leave_out(deadline)
        return [] if @quick

        costs = @suites.flat_map { |suite| row_costs(suite) }
        total = costs.sum(&:last)
        left = []
        off_screen(costs).each do |row, cost|
          break if total * OVERRUN <= deadline

          left << row
          total -= cost
        end
        left
      end

      # @param variant [String]
      # @return [Boolean] whether the variant needs another ruby than this one
      def self.foreign?(variant)
        variant != (Environment.yjit? ? "yjit" : "no-yjit")
      end

      # @param row [Row]
      # @param variant [String]
      # @return [Boolean] whether the row's trials under variant run in a fresh process
      def isolated?(row, variant) = @isolate_all || row.isolate? || self.class.foreign?(variant)

      # @param row [Row]
      # @param variant [String]
      # @return [Boolean] whether each of the row's trials under variant starts a process of its own
      #   (`isolate: :trial`, `--isolate`); other isolated trials share their group's child
      def fresh?(row, variant) = isolated?(row, variant) && (@isolate_all || row.fresh_process?)

      # @param row [Row]
      # @param variant [String]
      # @param fresh [Boolean] the trial runs in a process of its own, forked from the suite's
      #   forking child (TrialServer)
      # @return [Array] the child the row's trials run in ([suite, group, variant]); rows that
      #   are isolated only for a foreign variant get a child apart from the isolated rows (whose
      #   peers may patch Kernel, as Concurrently does)
      def self.group_key(row, variant, fresh: false)
        [row.suite.name, fresh ? "fork" : row.isolation_group || "plain", variant]
      end

      private

      # Sizes every suite; while the whole run is still over TOTAL_BUDGET
      # (suites already at their minimum cannot give more), the others'
      # budgets shrink further.
      def fit(suites, trials, seconds)
        sizes = nil
        8.times do
          sizes = suites.to_h { |suite| [suite, size(suite, trials, seconds)] }
          break if @quick || suites.sum { |suite| rough(suite, *sizes[suite]) } <= TOTAL_BUDGET

          @budget_scale *= 0.8
        end
        sizes
      end

      # The rows off the first screen with their costs, costliest first.
      def off_screen(costs)
        first_screen = @suites.to_h { |suite| [suite, suite.presentation.first_screen_rows] }
        costs.reject { |row, _| first_screen.fetch(row.suite).include?(row.name) }.sort_by { |_, cost| -cost }
      end

      def row_costs(suite)
        trials, seconds = size_of(suite)
        active(suite).map { |row| [row, @variants.sum { |variant| rough_row(row, variant, trials, seconds) }] }
      end

      def build(suites)
        suites.flat_map do |suite|
          trials, seconds = size_of(suite)
          active(suite).flat_map do |row|
            @variants.product((1..trials).to_a).map do |variant, trial|
              Run.new(suite: suite, row: row, variant: variant, trial: trial, trials: trials, seconds: seconds,
                      isolated: isolated?(row, variant), fresh: fresh?(row, variant))
            end
          end
        end
      end

      # A shared child is started once per group (the estimate assumes it
      # stays up; TrialPool keeps the recently used ones) and warms each row once.
      def estimate_run(run, warm)
        first = run.fresh || !warm.key?([run.row, run.variant])
        warm[[run.row, run.variant]] = true
        per_run(run.row, run.seconds, first) + child_start(run, warm) + (run.fresh ? FORK_SECONDS : 0)
      end

      # A trial's share of starting its child: all of it for the group's first
      # trial (fresh trials' group is the suite's forking child).
      def child_start(run, warm)
        return 0 unless run.isolated

        group = Plan.group_key(run.row, run.variant, fresh: run.fresh)
        started = warm.key?(group)
        warm[group] = true
        started ? 0 : SPAWN_SECONDS
      end

      def per_run(row, seconds, full_warmup)
        if row.kind == :duration
          warm = full_warmup && !@quick ? row.estimate(quick: true) : 0
          return row.estimate(quick: @quick) + warm + 0.01
        end

        (seconds * (full_warmup ? 2 : 1 + REWARM_SHARE)) + 0.01
      end

      # Fits trials and window to the suite's budget: first the window
      # shrinks (to MIN_SECONDS), then the trials (to MIN_TRIALS). Values
      # given on the command line are kept as they are.
      def size(suite, trials, seconds)
        return [trials || QUICK_TRIALS, seconds || QUICK_SECONDS] if @quick

        seconds ||= shrink_seconds(suite, trials || suite.trials, 1.0)
        trials ||= shrink_trials(suite, suite.trials, seconds)
        [trials, seconds]
      end

      def shrink_seconds(suite, trials, seconds)
        seconds *= 0.8 while seconds > MIN_SECONDS && rough(suite, trials, seconds) > budget(suite)
        [seconds, MIN_SECONDS].max.round(2)
      end

      # Steps of two keep an odd count odd, so the median is one real trial.
      def shrink_trials(suite, trials, seconds)
        trials -= trials.even? ? 1 : 2 while trials > MIN_TRIALS && rough(suite, trials, seconds) > budget(suite)
        [trials, MIN_TRIALS].max
      end

      def budget(suite) = suite.budget * @budget_scale

      def rough(suite, trials, seconds)
        @variants.sum { |variant| active(suite).sum { |row| rough_row(row, variant, trials, seconds) } }
      end

      # The rows that run: not skipped, and under --quick not left out of it (`quick: false`).
      def active(suite) = suite.rows.reject { |row| skipped.key?(row) || (@quick && !row.quick?) }

      # Trials plus, for a rate row warmed once in its process, its first full
      # warm-up (and a share of its child's start-up when it has one).
      def rough_row(row, variant, trials, seconds)
        fresh = fresh?(row, variant)
        first_warmup = fresh || row.kind == :duration ? 0 : seconds
        start = isolated?(row, variant) ? SPAWN_SECONDS / 2 : 0
        (trials * (per_run(row, seconds, fresh) + (fresh ? FORK_SECONDS : 0))) + first_warmup + start
      end
    end
  end
end
