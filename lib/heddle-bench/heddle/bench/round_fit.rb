# frozen_string_literal: true

require_relative "plan"

module Heddle
  module Bench
    # Keeps a run within its deadline from what its trials took, not from the
    # suites' estimates (which a loaded or slower machine overruns). A plan
    # runs in rounds (round k: trial k of every row, {Plan}); before each
    # round past the first {KEPT}, the rounds left are priced from the
    # trials measured so far, and those that would end past the deadline are
    # dropped, whole rounds from the last, so every row keeps as many trials
    # as the others. The first KEPT rounds always run: the reports judge
    # ties by min–max ranges, which need them, so a run never stops part-way.
    #
    # @example
    #   fit = Heddle::Bench::RoundFit.new(plan.runs, deadline: 840)
    #   fit.fit!(index, elapsed) # => nil (all fit), or the last round kept when it dropped later ones
    #   fit.runs[index]          # the run to start
    #   fit.record(run, seconds)
    class RoundFit
      # Rounds every row gets whatever the clock says.
      KEPT = Plan::MIN_TRIALS
      # Later rounds are priced this much above the mean of the trials so far (a slow spell may come).
      MARGIN = 1.1

      # @return [Array<Plan::Run>] the runs still planned: the plan's, less the rounds dropped
      attr_reader :runs
      # @return [Integer] how many of the plan's runs were dropped
      attr_reader :dropped

      # @param runs [Array<Plan::Run>] the plan's runs, round by round
      # @param deadline [Float, nil] seconds the run should end within (nil: no limit)
      # @raise [ArgumentError] for a deadline that is not a positive Numeric or nil
      def initialize(runs, deadline:)
        raise ArgumentError, "deadline must be positive seconds or nil, got #{deadline.inspect}" unless
          deadline.nil? || (deadline.is_a?(Numeric) && deadline.positive?)

        @runs = runs
        @dropped = 0
        @deadline = deadline
        @seconds = Hash.new { |hash, key| hash[key] = [] }
      end

      # Notes what a trial took, start to start (its warm-up, child and the harness's own time included).
      #
      # @param run [Plan::Run] @param seconds [Float]
      # @return [void]
      def record(run, seconds)
        @seconds[[run.row, run.variant]] << seconds
      end

      # Before the run at index: when it starts a round past {KEPT} and the
      # rounds left would not all end within the deadline, drops the later
      # rounds that would not.
      #
      # @param index [Integer] the run about to start, in {#runs}
      # @param elapsed [Float] seconds since the run started
      # @return [Integer, nil] the last round kept when rounds were dropped; nil otherwise (run on)
      def fit!(index, elapsed)
        run = @runs[index]
        return nil unless @deadline && run && run.trial > KEPT && round_start?(index)

        last = last_fitting(index, @deadline - elapsed)
        return nil if last >= @runs.last.trial

        kept = @runs[index..].take_while { |r| r.trial <= last }
        @dropped += @runs.size - index - kept.size
        @runs = @runs.first(index) + kept
        last
      end

      private

      def last_fitting(index, left)
        last = @runs[index].trial - 1
        @runs[index..].chunk_while { |a, b| a.trial == b.trial }.each do |round|
          left -= round.sum { |r| cost(r) }
          break if left.negative?

          last = round.first.trial
        end
        last
      end

      def round_start?(index) = index.zero? || @runs[index - 1].trial != @runs[index].trial

      # A later trial of the row: the mean of its trials after the first (which warms it and may start its
      # child), or the first when it is all there is.
      def cost(run)
        seen = @seconds[[run.row, run.variant]]
        later = seen.drop(1)
        sample = later.empty? ? seen : later
        sample.empty? ? 0.0 : sample.sum / sample.size * MARGIN
      end
    end
  end
end
