# frozen_string_literal: true

# The recursive rows of ShrinkingChallenges (see ../shrinking_challenges.rb):
# calculator's expressions and binheap's heaps, with `lazy` (an unrolled
# recursion of fixed depth where heddle has no `lazy`, to measure older heddle).
module ShrinkingChallenges
  def self.calculator
    Row.new(name: "calculator", minimum: "(/ 0 (+ 0 0))", minimal: ->(ce) { ce == ["/", 0, ["+", 0, 0]] },
            build: ->(calls) { counted(calls, expression) { |e| !div_subterms?(e) || evaluate(e) } })
  end

  # calculator as jqwik's port writes it (CalculatorProperties.java):
  # `lazyOf` of three integer suppliers and the two operators, so 3 : 1 : 1,
  # run 1000 times, jqwik's default tries (at 100 runs about 7 seeds in
  # 100 find no failure).
  def self.calculator_jqwik
    calculator.tap do |row|
      row.name = "calculator_jqwik"
      row.build = ->(calls) { counted(calls, jqwik_expression) { |e| !div_subterms?(e) || evaluate(e) } }
      row.options = { runs: 1000 }
    end
  end

  def self.jqwik_expression
    expression = nil
    expression = C.lazy do
      C.frequency([3, C.integer], [1, C.tuple(C.constant("+"), expression, expression)],
                  [1, C.tuple(C.constant("/"), expression, expression)])
    end
  end

  def self.expression
    recursive do |inner|
      next C.integer unless inner

      C.one_of(C.integer, C.tuple(C.constant("+"), inner, inner), C.tuple(C.constant("/"), inner, inner))
    end
  end

  def self.recursive(depth = 6, &build)
    if C.respond_to?(:lazy)
      tree = nil
      return tree = C.lazy { build.call(tree) }
    end

    build.call(depth.zero? ? nil : recursive(depth - 1, &build))
  end

  # calculator: no literal division by zero anywhere in the expression.
  def self.div_subterms?(expr)
    return true if expr.is_a?(Integer)
    return false if expr[0] == "/" && expr[2].eql?(0)

    div_subterms?(expr[1]) && div_subterms?(expr[2])
  end

  # calculator: Ruby's Integer#/ raises ZeroDivisionError, the bug.
  def self.evaluate(expr)
    return expr if expr.is_a?(Integer)

    left = evaluate(expr[1])
    right = evaluate(expr[2])
    expr[0] == "+" ? left + right : left / right
  end

  def self.binheap = binheap_with(heap, "binheap")

  # binheap as jqwik's port writes it (BinheapProperties.java): a size of
  # 0..20 drawn first and never used, then 3 empty : 1 node, a node's key
  # any int at least its parent's and its children drawn by `bind` from
  # it. About 1% of such heaps fail, so the row runs 1000 cases, jqwik's
  # default tries (at 100 runs about half the seeds find no failure).
  def self.binheap_bind
    heaps = C.integer(min: 0, max: 20).bind { |_size| jqwik_heap(0) }
    binheap_with(heaps, "binheap_bind").tap { |row| row.options = { runs: 1000 } }
  end

  def self.jqwik_heap(min_key)
    C.lazy do
      node = C.integer(min: min_key, max: INT32_MAX).bind do |head|
        C.tuple(C.constant(head), jqwik_heap(head), jqwik_heap(head))
      end
      C.frequency([3, C.nil], [1, node])
    end
  end

  def self.binheap_with(heaps, name)
    Row.new(name: name, minimum: "(0, None, (0, (0, None, None), (1, None, None)))",
            minimal: ->(ce) { ce == [0, nil, [0, [0, nil, nil], [1, nil, nil]]] },
            build: lambda { |calls|
              counted(calls, heaps) do |h|
                sorted = wrong_to_sorted(h)
                sorted == sorted.sort && heap_to_list(h).sort == sorted
              end
            })
  end

  # binheap: heaps (nil or [head, left, right]) of keys at least their
  # parent's, a node weighing 7 against 1 for empty as in QuickCheck's
  # generator (examples/Heap.hs, where the benchmark comes from), bounded by
  # heddle's size bound for `lazy` where QuickCheck halves its size per level.
  def self.heap(min_key = 0, depth = 6, weights: [1, 7])
    return C.lazy { heap_node(min_key, weights) { |h| heap(h, weights: weights) } } if C.respond_to?(:lazy)
    return C.nil if depth.zero?

    heap_node(min_key, weights) { |h| heap(h, depth - 1, weights: weights) }
  end

  # Empty or a node whose children are the block's heaps under its key.
  def self.heap_node(min_key, weights, &deeper)
    node = C.integer(min: min_key).bind { |head| C.tuple(C.constant(head), deeper.call(head), deeper.call(head)) }
    C.frequency([weights[0], C.nil], [weights[1], node])
  end

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
end
