# frozen_string_literal: true

module Heddle
  module Check
    class Shrinker
      # Passes that simplify a part of the value as a whole: a span in its
      # simplest form, or replaced by a smaller span of the same label
      # nested in it (Hypothesis's try_trivial_spans and pass_to_descendant).
      module Structure
        private

        # Replaces each span (but elements, which deletion handles) by its
        # simplest form: a `one_of` by its first branch, a subtree by a leaf.
        def zero_spans
          i = 0
          while i < current.span_starts.size
            choices = current
            consider([Hole.new(choices.values, i, choices.span_ends[i])]) if zeroable?(choices, i)
            i += 1
          end
        end

        def zeroable?(choices, index)
          start, finish = span_range(choices, index)
          !choices.span_elements[index] && finish - start > 1 &&
            (start...finish).any? { |p| !choices.values[p].eql?(choices.targets[p]) }
        end

        # Replaces a span by a smaller span of the same label nested in it:
        # a tree by one of its subtrees, an expression by a subexpression.
        def pass_to_descendant
          i = 0
          while i < current.span_starts.size
            choices = current
            nested = descendants(choices, i)
            consider(nested.map { |j| replaced(choices, i, j) }) unless nested.empty?
            i += 1
          end
        end

        # The values with span index replaced by the choices of span other.
        def replaced(choices, index, other)
          start, finish = span_range(choices, index)
          values = choices.values
          values[0, start] + values[choices.span_starts[other]...choices.span_ends[other]] + values[finish..]
        end

        # Spans of index's label inside it, largest first.
        def descendants(choices, index)
          start, finish = span_range(choices, index)
          inside = ((index + 1)...choices.span_starts.size).take_while { |j| choices.span_starts[j] < finish }
          inside.select! { |j| same_label_smaller?(choices, j, index, finish - start) }
          inside.sort_by { |j| [choices.span_starts[j] - choices.span_ends[j], j] }
        end

        def same_label_smaller?(choices, inner, outer, length)
          choices.span_labels[inner].eql?(choices.span_labels[outer]) &&
            (choices.span_ends[inner] - choices.span_starts[inner]).between?(1, length - 1)
        end
      end
    end
  end
end
