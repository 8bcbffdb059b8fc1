# frozen_string_literal: true

require "test_helper"
require "heddle/check"

class CheckStatefulTest < Minitest::Test
  C = Heddle::Check

  # A bounded stack that silently overwrites its top when full: the bug to find.
  class OverwritingStack
    def initialize = @items = []
    def push(item) = @items.size >= 3 ? @items[-1] = item : @items.push(item)
    def pop = @items.pop
    def size = @items.size
  end

  def stack_property(stack_class)
    C.stateful(initial: -> { [] }, sut: -> { stack_class.new }) do |m|
      m.command :push, args: C.integer, run: ->(s, x) { s.push(x) }, next_state: ->(st, x) { st + [x] }
      m.command :pop, pre: :any?.to_proc, run: :pop.to_proc,
                      next_state: ->(st) { st[0...-1] }, post: ->(st, r) { r == st.last }
      m.command :size, run: :size.to_proc, post: ->(st, r) { r == st.size }
    end
  end

  def test_a_correct_implementation_passes
    assert_predicate C.check(stack_property(Class.new(Array)), seed: 1, runs: 50), :passed?
  end

  def test_the_bug_is_found_and_the_sequence_shrinks_to_four_pushes_and_a_check
    (1..6).each do |seed|
      result = C.check(stack_property(OverwritingStack), seed: seed)
      assert_kind_of Heddle::Check::Stateful::PostconditionFailed, result.error
      names = result.counterexample.map(&:first)
      assert_equal %i[push push push push], names.first(4), "seed #{seed}: #{result.counterexample.inspect}"
      assert_operator names.size, :<=, 6, "seed #{seed}: #{result.counterexample.inspect}"
    end
  end

  def counting_property(misuse)
    C.stateful(initial: -> { 0 }, sut: -> { [] }) do |m|
      m.command :push, args: C.nat(max: 9), run: ->(s, x) { s.push(x) }, next_state: ->(n, _) { n + 1 }
      m.command :pop, pre: :positive?.to_proc, run: ->(s) { s.empty? ? misuse << :pop : s.pop },
                      next_state: ->(n) { n - 1 }
      m.command :boom, pre: ->(n) { n >= 2 }, run: ->(_) { raise "boom" }
    end
  end

  def test_preconditions_hold_in_generated_and_shrunk_sequences
    misuse = []
    result = C.check(counting_property(misuse), seed: 5)
    assert_equal [[:push, [0]], [:push, [0]], [:boom, []]], result.counterexample
    assert_empty misuse
  end

  def test_a_stateful_check_without_commands_is_an_argument_error
    assert_raises(ArgumentError) { C.stateful(initial: -> { 0 }, sut: -> { 0 }) { |_| nil } }
  end
end
