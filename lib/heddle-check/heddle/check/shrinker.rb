# frozen_string_literal: true

require_relative "shrinker/order"
require_relative "shrinker/deletion"
require_relative "shrinker/structure"
require_relative "shrinker/reordering"
require_relative "shrinker/minimizing"
require_relative "shrinker/pairs"

module Heddle
  module Check
    # Shrinks a failing case by shrinking the choices behind it (integrated
    # shrinking, as Hypothesis does): a candidate is a sequence of choices,
    # replayed through the property's arbitrary into a value, and kept when
    # the property still fails on it and the sequence is *simpler*: shorter,
    # or as long and smaller at the first choice that differs ({Order}).
    # That order is total and every kept candidate descends in it, so
    # shrinking ends; it is also what makes results the same from any start.
    #
    # The passes ({Deletion}, {Structure}, {Reordering}, {Minimizing},
    # {Pairs}) each propose candidates; a
    # pass that worked in a round runs earlier in the next (one that
    # shortened the sequence first), so cheap passes that keep failing do not
    # delay the ones that jump. Rounds go on until one changes nothing, or
    # `max_steps` candidates were kept.
    #
    # Candidates are evaluated in batches, and the first failing one of a
    # batch (in proposal order) is kept, so the outcome does not depend on
    # the runner: every backend keeps the same candidates.
    class Shrinker
      include Order
      include Deletion
      include Structure
      include Reordering
      include Minimizing
      include Pairs

      # The passes, in their first order: deletions first, since a shorter
      # sequence makes every later pass cheaper.
      PASSES = %i[remove_discarded delete_spans merge_elements join_collections zero_spans pass_to_descendant
                  minimize_choices minimize_duplicates lower_pairs redistribute reorder_spans permute_spans].freeze
      # Replays remembered, so a pass that asks about the same sequence twice replays it once.
      REPLAYS = 4096

      # A replayed sequence: its choices, the raw value and the value the property gets.
      Candidate = Struct.new(:choices, :raw, :args)

      # A sequence to replay with a hole: the span of that pre-order index is
      # drawn in its simplest form, then the sequence goes on at resume.
      Hole = Struct.new(:prefix, :span, :resume)

      # @return [Candidate] the simplest failing case found
      attr_reader :best
      # @return [Exception] the error best raised
      attr_reader :error
      # @return [Integer] candidates kept
      attr_reader :steps

      # @param best [Candidate] the failing case
      # @param error [Exception] its error
      # @param max_steps [Integer] stop after keeping this many candidates
      # @param batch_size [Integer] candidates per evaluation
      # @param replay [#call] (values, hole) -> Candidate, or nil when the sequence makes no value
      # @param test [#call] (Array<Candidate>) -> [index, error] of the first that fails, or nil
      def initialize(best, error, max_steps:, batch_size:, replay:, test:) # rubocop:disable Metrics/ParameterLists -- the shrinker's whole context
        @best = best
        @error = error
        @max_steps = max_steps
        @batch_size = batch_size
        @replay = replay
        @test = test
        @steps = 0
        @passed = {}
        @replays = {}
        @settled = {}
      end

      # Runs the passes until none changes anything or the steps run out.
      # @return [self]
      def run
        return self if @max_steps.zero?

        passes = PASSES.dup
        catch(:out_of_steps) do
          loop do
            outcome = passes.to_h { |pass| [pass, run_pass(pass)] }
            break if outcome.each_value.all?(:none)

            passes = passes.each_with_index.sort_by { |pass, i| [RANKS[outcome[pass]], i] }.map(&:first)
          end
        end
        self
      end

      private

      RANKS = { shortened: 0, simplified: 1, none: 2 }.freeze
      private_constant :RANKS

      # A pass that changed nothing on this very case is not run on it again.
      def run_pass(pass)
        return :none if @settled[pass].equal?(@best)

        before = @best
        send(pass)
        return (@settled[pass] = @best) && :none if @best.equal?(before)

        @best.choices.size < before.choices.size ? :shortened : :simplified
      end

      # @return [Choices] the best case's choices
      def current = @best.choices

      # Evaluates proposals (value Arrays, Holes or Candidates already replayed) in order, in batches, and
      # keeps the first that fails and is simpler than the best.
      # @return [Boolean] whether one was kept
      def consider(proposals)
        batch = []
        proposals.each do |proposal|
          next unless (candidate = fresh_candidate(proposal, batch))

          batch << candidate
          next if batch.size < @batch_size
          return true if evaluate(batch)

          batch = []
        end
        !batch.empty? && evaluate(batch)
      end

      # The proposal's candidate unless it is not simpler, already passed, or already in the batch.
      def fresh_candidate(proposal, batch)
        candidate = candidate_for(proposal)
        candidate if candidate && batch.none? { |c| c.choices.values == candidate.choices.values }
      end

      def candidate_for(proposal)
        candidate = proposal.is_a?(Candidate) ? proposal : replay(proposal)
        return nil unless candidate && simpler?(candidate.choices, current)
        return nil if @passed.key?(candidate.choices.values)

        candidate
      end

      # @return [Candidate, nil] the proposal replayed (remembered)
      def replay(proposal)
        @replays.clear if @replays.size >= REPLAYS
        return @replays[proposal] if @replays.key?(proposal)

        hole = proposal.is_a?(Hole)
        @replays[proposal] =
          hole ? @replay.call(proposal.prefix, [proposal.span, proposal.resume]) : @replay.call(proposal, nil)
      end

      def evaluate(batch)
        index, error = @test.call(batch)
        (index ? batch.first(index) : batch).each { |c| @passed[c.choices.values] = true }
        return false unless index

        @best = batch[index]
        @error = error
        @steps += 1
        throw :out_of_steps if @steps >= @max_steps
        true
      end

      # The largest n with the block true for 0..n, given it is true for 0:
      # 1..4 one by one, then doubling, then bisecting (Hypothesis's
      # find_integer); O(log n) calls.
      # @return [Integer]
      def find_integer
        (1..4).each { |n| return n - 1 unless yield(n) }
        low = 4
        high = 8
        while yield(high)
          low = high
          high *= 2
        end
        while low + 1 < high
          middle = (low + high) / 2
          yield(middle) ? low = middle : high = middle
        end
        low
      end

      # values without the choices from start (inclusive) to finish (exclusive)
      def cut(values, start, finish) = values[0, start] + values[finish..]

      # values with replacements ({index => value})
      def with(values, changes)
        copy = values.dup
        changes.each { |i, v| copy[i] = v }
        copy
      end

      # Whether the choice at position is an integer with more than two
      # values (booleans aside: flags and branches of two).
      def numeric?(choices, position)
        choices.values[position].is_a?(::Integer) && choices.maxs[position] - choices.mins[position] > 1
      end

      # Positions of {#numeric?} choices (computed once per case).
      def numeric_positions(choices)
        return @numeric if @numeric_of.equal?(choices)

        @numeric_of = choices
        @numeric = (0...choices.size).select { |p| numeric?(choices, p) }
      end

      # Where the span starts and ends.
      def span_range(choices, index) = [choices.span_starts[index], choices.span_ends[index]]
    end
  end
end
