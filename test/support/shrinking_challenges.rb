# frozen_string_literal: true

require "heddle/check"

# The Shrinking Challenge (github.com/jlink/shrinking-challenge,
# challenges/*.md) written with Heddle::Check's public API: 16 rows, each a
# property that fails, the counterexample the challenge calls minimal, and
# a test of a counterexample against it. Where the ports differ, a row is
# written as the port that shrinks best writes it and, named after the
# library, as its users write it (bound5_jqwik, calculator_jqwik, binheap_bind). Used by
# test/heddle/check/shrinking_challenge_test.rb and by
# bench/scripts/check/shrinking_challenge.rb (which also runs the pbt ports).
#
# Each property counts its evaluations in a one-element Array so that a
# runner can report evaluations per shrink (inline checks only).
module ShrinkingChallenges
  C = Heddle::Check

  # name, the minimum as the challenge writes it, a builder
  # ->(calls) { Property }, a test ->(counterexample) { Boolean } and the
  # check's options (runs: where the port's library runs more than 100).
  Row = Struct.new(:name, :minimum, :build, :minimal, :options, keyword_init: true)

  # The rows, in the challenge's order, each natural form after its row.
  NAMES = %i[bound5 bound5_jqwik large_union_list reverse calculator calculator_jqwik lengthlist
             difference_must_not_be_zero difference_must_not_be_small difference_must_not_be_one binheap
             binheap_bind coupling deletion distinct nestedlists].freeze

  # @return [Array<Row>]
  def self.rows = NAMES.map { |name| public_send(name) }

  # A property whose block counts its calls in calls[0].
  def self.counted(calls, *arbitraries, &block)
    C.property(*arbitraries) do |*args|
      calls[0] += 1
      block.call(*args)
    end
  end

  # One check of a row on one seed, inline.
  # @return [Hash] found:, minimal:, shrinks:, evaluations: (of the shrink phase), seconds:, cpu: (seconds),
  #   counterexample:
  def self.run(row, seed, **options)
    calls = [0]
    property = row.build.call(calls)
    started = [Process::CLOCK_MONOTONIC, Process::CLOCK_PROCESS_CPUTIME_ID].map { |c| Process.clock_gettime(c) }
    result = C.check(property, seed: seed, **(row.options || {}), **options)
    wall, cpu = [Process::CLOCK_MONOTONIC, Process::CLOCK_PROCESS_CPUTIME_ID].map { |c| Process.clock_gettime(c) }
    { found: result.failed?, minimal: result.failed? && row.minimal.call(result.counterexample),
      shrinks: result.shrinks, evaluations: calls[0] - result.runs, seconds: wall - started[0], cpu: cpu - started[1],
      counterexample: result.counterexample }
  end
end

require_relative "shrinking_challenges/lists"
require_relative "shrinking_challenges/numbers"
require_relative "shrinking_challenges/trees"
