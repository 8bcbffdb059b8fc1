# frozen_string_literal: true

module Heddle
  module Check
    class Shrinker
      # Passes that move spans: sorting adjacent spans drawn alike, and
      # swapping or rotating spans of one label anywhere in the case.
      module Reordering
        # Labels with more spans than this are not permuted: the pass is cubic.
        PERMUTABLE = 12

        private

        # Sorts runs of adjacent spans drawn alike (a collection's elements, a
        # tuple's subtrees), simplest first, then tries swapping neighbours out
        # of order: `[1, 0]` becomes `[0, 1]`, `(x, tree, nil)` `(x, nil, tree)`.
        def reorder_spans
          i = 0
          while i < current.span_starts.size
            choices = current
            ends = sibling_ends(choices, i)
            reorder_run(choices, [choices.span_starts[i], *ends[0..-2]], ends) if ends.size > 1
            i += 1
          end
        end

        def reorder_run(choices, starts, ends)
          keys = starts.zip(ends).map { |s, e| slice_key(choices, s, e) }
          slices = starts.zip(ends).map { |s, e| choices.values[s...e] }
          order = (0...slices.size).sort_by { |k| [keys[k], k] }
          proposals = []
          proposals << splice_run(choices, starts, ends, order.map { |k| slices[k] }) unless order == order.sort
          proposals.concat(swaps(choices, starts, ends, slices, keys))
          consider(proposals) unless proposals.empty?
        end

        # Each pair of neighbours out of order, swapped.
        def swaps(choices, starts, ends, slices, keys)
          (0...(slices.size - 1)).filter_map do |k|
            next unless (keys[k + 1] <=> keys[k]).negative?

            swapped = slices.dup
            swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
            splice_run(choices, starts, ends, swapped)
          end
        end

        def splice_run(choices, starts, ends, slices)
          choices.values[0, starts.first] + slices.flatten(1) + choices.values[ends.last..]
        end

        # Moves spans of one label around: swaps two, rotates three (when that
        # puts a simpler span first). In a heap `(0, (1), (0, (2), nil))` only
        # a rotation of three subtrees reaches `(0, nil, (0, (1), (2)))`.
        def permute_spans
          current.span_labels.each_index.group_by { |i| current.span_labels[i] }.each_value do |group|
            spans = group.reject { |i| current.span_ends[i] == current.span_starts[i] }
            consider(permutations(current, spans)) if spans.size.between?(2, PERMUTABLE)
          end
        end

        def permutations(choices, spans)
          keys = spans.to_h { |i| [i, slice_key(choices, *span_range(choices, i))] }
          moves = spans.combination(2).map { |a, b| [[a, b], [b, a]] }
          spans.combination(3) { |a, b, c| moves.push([[a, b, c], [b, c, a]], [[a, b, c], [c, a, b]]) }
          moves.filter_map do |targets, incoming|
            next unless apart?(choices, *targets) && (keys[incoming[0]] <=> keys[targets[0]]).negative?

            place(choices, targets, incoming)
          end
        end

        # Whether the spans follow each other without overlapping.
        def apart?(choices, *spans) = spans.each_cons(2).all? { |a, b| choices.span_ends[a] <= choices.span_starts[b] }

        # The values with each target span's choices replaced by those of
        # the incoming span at the same place in the list.
        def place(choices, targets, incoming)
          values = choices.values.dup
          targets.zip(incoming).reverse_each do |t, i|
            values[choices.span_starts[t]...choices.span_ends[t]] =
              choices.values[choices.span_starts[i]...choices.span_ends[i]]
          end
          values
        end
      end
    end
  end
end
