# frozen_string_literal: true

module Loom
  module Check
    class Shrinker
      # Passes over the structure of a case: the spans of choices that each
      # part of the value drew (elements, branches, binds, recursions).
      module SpanPasses
        private

        # Drops every refused attempt (filters, unique elements) at once.
        def remove_discarded
          choices = current
          return if choices.discarded.empty?

          keep = ::Array.new(choices.size, true)
          choices.discarded.each { |i| (choices.span_starts[i]...choices.span_ends[i]).each { |p| keep[p] = false } }
          consider([choices.values.select.with_index { |_, p| keep[p] }])
        end

        # Deletes elements, outermost first; after deleting one, deletes as
        # many of the elements after it as still fail (found in O(log n)
        # tries, as Hypothesis's adaptive deletion). Other spans are not
        # deleted: what follows them would be read in their place.
        def delete_spans
          i = 0
          while i < current.span_starts.size
            choices = current
            next i += 1 unless choices.span_elements[i]

            start = choices.span_starts[i]
            finish = choices.span_ends[i]
            if consider([cut(choices.values, start, finish)])
              delete_siblings(choices, i)
            elsif !consider([cut_and_step(choices, start, finish)])
              i += 1
            end
          end
        end

        # An element deleted while every number after it steps one toward its
        # target: numbers that point at positions (`[0, 2, 1]`, where 1 and 2
        # point at each other) keep pointing at the same elements.
        def cut_and_step(choices, start, finish)
          steps = (finish...choices.size).filter_map do |p|
            value = choices.values[p]
            next unless value.is_a?(::Integer) && choices.maxs[p] - choices.mins[p] > 1 && value != choices.targets[p]

            [p, value > choices.targets[p] ? value - 1 : value + 1]
          end
          cut(with(choices.values, steps), start, finish)
        end

        def delete_siblings(choices, index)
          ends = sibling_ends(choices, index)
          start = choices.span_starts[index]
          find_integer { |n| n < ends.size && consider([cut(choices.values, start, ends[n])]) }
        end

        # Where the run of adjacent sibling elements starting at index ends,
        # after 1, 2, ... of them.
        def sibling_ends(choices, index)
          ends = [choices.span_ends[index]]
          j = index + 1
          while j < choices.span_starts.size
            j += 1 while j < choices.span_starts.size && choices.span_starts[j] < ends.last
            break unless sibling?(choices, index, j, ends.last)

            ends << choices.span_ends[j]
            j += 1
          end
          ends
        end

        # Whether other starts at start and is drawn like index (same label,
        # both elements or both not).
        def sibling?(choices, index, other, start)
          other < choices.span_starts.size && choices.span_starts[other] == start &&
            choices.span_elements[other] == choices.span_elements[index] &&
            choices.span_labels[other].eql?(choices.span_labels[index])
        end

        # Deletes an element holding one number while adding what the number
        # held to a nearby number: `[60, 50]` becomes `[110]`, and in bound5
        # `[a], [b]` becomes `[], [a + b]` before minimizing makes a sum overflow.
        def merge_elements
          i = 0
          while i < current.span_starts.size
            choices = current
            i += 1 unless choices.span_elements[i] && merge_element(choices, i)
          end
        end

        def merge_element(choices, index)
          start = choices.span_starts[index]
          finish = choices.span_ends[index]
          inside = numeric_positions(choices).select { |p| p >= start && p < finish }
          return false unless inside.size == 1

          amount = choices.values[inside[0]] - choices.targets[inside[0]]
          return false if amount.zero?

          consider(merge_partners(choices, start, finish).filter_map do |j|
            merged = choices.values[j] + amount
            cut(with(choices.values, j => merged), start, finish) if merged.between?(choices.mins[j], choices.maxs[j])
          end)
        end

        # The nearest numbers after the span, then the nearest before it.
        def merge_partners(choices, start, finish)
          numbers = numeric_positions(choices)
          numbers.select { |p| p >= finish }.first(ValuePasses::WINDOW) + numbers.select { |p| p < start }.last(2).reverse
        end

        # Joins neighbouring collections: deletes a collection's "no more"
        # with the "another?" of the element after it, so that
        # `[[0, 0], [0]]` becomes `[[0, 0, 0]]` (Hypothesis deletes any two
        # consecutive choices; these are the pairs that can join).
        def join_collections
          i = 0
          while i < current.span_starts.size
            choices = current
            stop = choices.span_starts[i] - 1
            i += 1 unless choices.span_elements[i] && stop >= 0 && stop?(choices, stop) &&
                          consider([cut(choices.values, stop, stop + 2)])
          end
        end

        # Whether the choice is a collection's "no more": a 0 of 0..1 that
        # no span starts with.
        def stop?(choices, position)
          choices.values[position].eql?(0) && choices.maxs[position] == 1 && choices.mins[position].zero? &&
            !choices.span_starts.include?(position)
        end

        # Replaces each span (but elements, which deletion handles) by its
        # simplest form: a `one_of` by its first branch, a subtree by a leaf.
        def zero_spans
          i = 0
          while i < current.span_starts.size
            choices = current
            start = choices.span_starts[i]
            finish = choices.span_ends[i]
            if !choices.span_elements[i] && finish - start > 1 &&
               (start...finish).any? { |p| !choices.values[p].eql?(choices.targets[p]) }
              consider([Hole.new(choices.values, i, finish)])
            end
            i += 1
          end
        end

        # Replaces a span by a smaller span of the same label nested in it:
        # a tree by one of its subtrees, an expression by a subexpression.
        def pass_to_descendant
          i = 0
          while i < current.span_starts.size
            choices = current
            nested = descendants(choices, i)
            unless nested.empty?
              start = choices.span_starts[i]
              finish = choices.span_ends[i]
              consider(nested.map do |j|
                choices.values[0, start] + choices.values[choices.span_starts[j]...choices.span_ends[j]] +
                  choices.values[finish..]
              end)
            end
            i += 1
          end
        end

        # Spans of index's label inside it, largest first.
        def descendants(choices, index)
          finish = choices.span_ends[index]
          length = finish - choices.span_starts[index]
          label = choices.span_labels[index]
          ((index + 1)...choices.span_starts.size)
            .take_while { |j| choices.span_starts[j] < finish }
            .select { |j| choices.span_labels[j].eql?(label) && (choices.span_ends[j] - choices.span_starts[j]).between?(1, length - 1) }
            .sort_by { |j| [choices.span_starts[j] - choices.span_ends[j], j] }
        end

        # Sorts runs of adjacent spans drawn alike (a collection's elements, a
        # tuple's subtrees), simplest first, then tries swapping neighbours out
        # of order: `[1, 0]` becomes `[0, 1]`, `(x, tree, nil)` `(x, nil, tree)`.
        def reorder_spans
          i = 0
          while i < current.span_starts.size
            choices = current
            ends = sibling_ends(choices, i)
            reorder_run(choices, i, ends) if ends.size > 1
            i += 1
          end
        end

        def reorder_run(choices, index, ends)
          starts = [choices.span_starts[index], *ends[0..-2]]
          keys = starts.zip(ends).map { |s, e| slice_key(choices, s, e) }
          slices = starts.zip(ends).map { |s, e| choices.values[s...e] }
          order = (0...slices.size).sort_by { |k| [keys[k], k] }
          proposals = []
          proposals << splice_run(choices, starts, ends, order.map { |k| slices[k] }) unless order == order.sort
          (0...(slices.size - 1)).each do |k|
            next unless (keys[k + 1] <=> keys[k]).negative?

            swapped = slices.dup
            swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
            proposals << splice_run(choices, starts, ends, swapped)
          end
          consider(proposals) unless proposals.empty?
        end

        # Moves spans of one label around: swaps two, rotates three (when that
        # puts a simpler span first). In a heap `(0, (1), (0, (2), nil))` only
        # a rotation of three subtrees reaches `(0, nil, (0, (1), (2)))`.
        # Tried on labels with at most PERMUTABLE spans: it is cubic.
        def permute_spans
          current.span_labels.each_index.group_by { |i| current.span_labels[i] }.each_value do |group|
            spans = group.reject { |i| current.span_ends[i] == current.span_starts[i] }
            next if spans.size < 2 || spans.size > PERMUTABLE

            consider(permutations(current, spans))
          end
        end

        PERMUTABLE = 12

        # Whether the spans follow each other without overlapping.
        def apart?(choices, *spans) = spans.each_cons(2).all? { |a, b| choices.span_ends[a] <= choices.span_starts[b] }

        def permutations(choices, spans)
          keys = spans.to_h { |i| [i, slice_key(choices, choices.span_starts[i], choices.span_ends[i])] }
          out = []
          spans.combination(2) do |a, b|
            out << place(choices, [a, b], [b, a]) if apart?(choices, a, b) && (keys[b] <=> keys[a]).negative?
          end
          spans.combination(3) do |a, b, c|
            next unless apart?(choices, a, b, c)

            [[b, c, a], [c, a, b]].each do |incoming|
              out << place(choices, [a, b, c], incoming) if (keys[incoming[0]] <=> keys[a]).negative?
            end
          end
          out
        end

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

        def splice_run(choices, starts, ends, slices)
          choices.values[0, starts.first] + slices.flatten(1) + choices.values[ends.last..]
        end
      end
    end
  end
end
