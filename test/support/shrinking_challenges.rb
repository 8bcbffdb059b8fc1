# frozen_string_literal: true

require "loom/check"

# The Shrinking Challenge (github.com/jlink/shrinking-challenge,
# challenges/*.md) written with Loom::Check's public API: 13 rows, each a
# property that fails, the counterexample the challenge calls minimal, and
# a test of a counterexample against it. Used by
# test/loom/check/shrinking_challenge_test.rb and by
# bench/scripts/check/shrinking_challenge.rb (which also runs the pbt ports).
#
# Each property counts its evaluations in a one-element Array so that a
# runner can report evaluations per shrink (inline checks only).
module ShrinkingChallenges
  C = Loom::Check

  # name, the minimum as the challenge writes it, a builder
  # ->(calls) { Property } and a test ->(counterexample) { Boolean }.
  Row = Struct.new(:name, :minimum, :build, :minimal, keyword_init: true)

  INT16 = (-32_768..32_767)
  INT32_MAX = (2**31) - 1

  # Java's short addition: wraps at 16 bits (bound5 fails by overflow).
  def self.sum16(values) = values.reduce(0) { |sum, v| ((sum + v - INT16.min) % 65_536) + INT16.min }

  # calculator: no literal division by zero anywhere in the expression.
  def self.div_subterms?(expr)
    return true if expr.is_a?(Integer)
    return false if expr[0] == "/" && expr[2] == 0 # rubocop:disable Style/NumericPredicate -- an expression, not a number

    div_subterms?(expr[1]) && div_subterms?(expr[2])
  end

  # calculator: Ruby's Integer#/ raises ZeroDivisionError, the bug.
  def self.evaluate(expr)
    return expr if expr.is_a?(Integer)

    left = evaluate(expr[1])
    right = evaluate(expr[2])
    expr[0] == "+" ? left + right : left / right
  end

  # binheap: a heap is nil or [head, left, right].
  def self.heap_to_list(heap)
    out = []
    stack = [heap]
    until stack.empty?
      node = stack.pop
      next unless node

      out << node[0]
      stack.push(node[1], node[2])
    end
    out
  end

  def self.merge_heaps(one, two)
    return two unless one
    return one unless two

    one, two = two, one if one[0] > two[0]
    [one[0], merge_heaps(one[2], two), one[1]]
  end

  # binheap: the challenge's wrong conversion to a sorted list.
  def self.wrong_to_sorted(heap) = heap ? [heap[0], *heap_to_list(merge_heaps(heap[1], heap[2]))] : []

  # The recursion of calculator and binheap: `lazy` where loom has it, else
  # a tree unrolled to a fixed depth (for measuring shrinkers without it).
  def self.recursive(depth = 6, &build)
    if C.respond_to?(:lazy)
      tree = nil
      tree = C.lazy { build.call(tree) }
      return tree
    end

    build.call(depth.zero? ? nil : recursive(depth - 1, &build))
  end

  def self.expression
    recursive do |inner|
      next C.integer unless inner

      C.one_of(C.integer, C.tuple(C.constant("+"), inner, inner), C.tuple(C.constant("/"), inner, inner))
    end
  end

  # binheap: heaps of keys at least their parent's, a node weighing 7
  # against 1 for empty as in QuickCheck's generator (examples/Heap.hs,
  # where the benchmark comes from), bounded by loom's size bound for `lazy`
  # where QuickCheck halves its size at each level. (jqwik's port draws 3:1
  # and never uses its size: about 1% of its heaps fail, so 100 runs find
  # the bug on 63% of seeds; see heap_jqwik.)
  def self.heap(min_key = 0, depth = 6)
    node = lambda do |deeper|
      C.integer(min: min_key).bind { |head| C.tuple(C.constant(head), deeper.call(head), deeper.call(head)) }
    end
    return C.lazy { C.frequency([1, C.nil], [7, node.call(->(h) { heap(h) })]) } if C.respond_to?(:lazy)
    return C.nil if depth.zero?

    C.frequency([1, C.nil], [7, node.call(->(h) { heap(h, depth - 1) })])
  end

  # jqwik's binheap generator (3 empty : 1 node, no size).
  def self.heap_jqwik(min_key = 0, depth = 6)
    node = lambda do |key_floor, deeper|
      C.integer(min: key_floor).bind { |head| C.tuple(C.constant(head), deeper.call(head), deeper.call(head)) }
    end
    return C.lazy { C.frequency([3, C.nil], [1, node.call(min_key, ->(h) { heap_jqwik(h) })]) } if C.respond_to?(:lazy)
    return C.nil if depth.zero?

    C.frequency([3, C.nil], [1, node.call(min_key, ->(h) { heap_jqwik(h, depth - 1) })])
  end

  def self.difference(name, minimum, &failing)
    Row.new(name: name, minimum: minimum.inspect, minimal: ->(ce) { ce == minimum }, build: lambda { |calls|
      C.property(C.integer(min: 1, max: INT32_MAX), C.integer(min: 1, max: INT32_MAX)) do |a, b|
        calls[0] += 1
        a < 10 || !failing.call((a - b).abs)
      end
    })
  end

  def self.rows
    bounded = C.array(C.integer(min: INT16.min, max: INT16.max), max: 1).filter { |l| sum16(l) < 256 }
    [
      Row.new(name: "bound5", minimum: "[-32768], [-1] in two of the lists",
              minimal: ->(ce) { ce.reject(&:empty?).sort == [[-32_768], [-1]] },
              build: lambda { |calls|
                C.property(C.tuple(bounded, bounded, bounded, bounded, bounded)) do |p|
                  calls[0] += 1
                  sum16(p.flatten) < 5 * 256
                end
              }),
      Row.new(name: "large_union_list", minimum: "[[0, 1, -1, 2, -2]]",
              minimal: ->(ce) { ce.size == 1 && ce[0].sort == [-2, -1, 0, 1, 2] },
              build: lambda { |calls|
                C.property(C.array(C.array(C.integer))) do |ls|
                  calls[0] += 1
                  ls.flatten.uniq.size < 5
                end
              }),
      Row.new(name: "reverse", minimum: "[0, 1]", minimal: ->(ce) { ce == [0, 1] },
              build: lambda { |calls|
                C.property(C.array(C.integer)) do |ls|
                  calls[0] += 1
                  ls.reverse == ls
                end
              }),
      Row.new(name: "calculator", minimum: "(/ 0 (+ 0 0))", minimal: ->(ce) { ce == ["/", 0, ["+", 0, 0]] },
              build: lambda { |calls|
                C.property(expression) do |e|
                  calls[0] += 1
                  next true unless div_subterms?(e)

                  evaluate(e)
                end
              }),
      Row.new(name: "lengthlist", minimum: "[900]", minimal: ->(ce) { ce == [900] },
              build: lambda { |calls|
                lists = C.integer(min: 1, max: 100).bind do |n|
                  C.array(C.integer(min: 0, max: 1000), min: n, max: n)
                end
                C.property(lists) do |ls|
                  calls[0] += 1
                  ls.max < 900
                end
              }),
      difference("difference_must_not_be_zero", [10, 10]) { |d| d.zero? },
      difference("difference_must_not_be_small", [10, 6]) { |d| d.between?(1, 4) },
      difference("difference_must_not_be_one", [10, 9]) { |d| d == 1 },
      Row.new(name: "binheap", minimum: "(0, None, (0, (0, None, None), (1, None, None)))",
              minimal: ->(ce) { ce == [0, nil, [0, [0, nil, nil], [1, nil, nil]]] },
              build: lambda { |calls|
                C.property(heap) do |h|
                  calls[0] += 1
                  sorted = wrong_to_sorted(h)
                  sorted == sorted.sort && heap_to_list(h).sort == sorted
                end
              }),
      Row.new(name: "coupling", minimum: "[1, 0]", minimal: ->(ce) { ce == [1, 0] },
              build: lambda { |calls|
                C.property(C.array(C.integer(min: 0, max: 10))) do |ls|
                  calls[0] += 1
                  next true unless ls.all? { |v| v < ls.size }

                  ls.each_with_index.all? { |j, i| i == j || ls[j] != i }
                end
              }),
      Row.new(name: "deletion", minimum: "([0, 0], 0)", minimal: ->(ce) { ce == [[0, 0], 0] },
              build: lambda { |calls|
                C.property(C.array(C.integer), C.integer(min: 0, max: 10)) do |ls, i|
                  calls[0] += 1
                  next true unless i < ls.size

                  x = ls[i]
                  copy = ls.dup
                  copy.delete_at(copy.index(x))
                  !copy.include?(x)
                end
              }),
      Row.new(name: "distinct", minimum: "[0, 1, -1] or [0, 1, 2]",
              minimal: ->(ce) { [[-1, 0, 1], [0, 1, 2]].include?(ce.sort) },
              build: lambda { |calls|
                C.property(C.array(C.integer)) do |ls|
                  calls[0] += 1
                  ls.uniq.size < 3
                end
              }),
      Row.new(name: "nestedlists", minimum: "[[0] * 11]", minimal: ->(ce) { ce == [[0] * 11] },
              build: lambda { |calls|
                C.property(C.array(C.array(C.integer(min: 0, max: 0)))) do |ls|
                  calls[0] += 1
                  ls.sum(&:size) <= 10
                end
              })
    ]
  end

  # One check of a row on one seed, inline.
  # @return [Hash] found:, minimal:, shrinks:, evaluations: (of the shrink phase), seconds:, counterexample:
  def self.run(row, seed, **options)
    calls = [0]
    property = row.build.call(calls)
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    result = C.check(property, seed: seed, **options)
    seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
    { found: result.failed?, minimal: result.failed? && row.minimal.call(result.counterexample),
      shrinks: result.shrinks, evaluations: calls[0] - result.runs, seconds: seconds,
      counterexample: result.counterexample }
  end
end
