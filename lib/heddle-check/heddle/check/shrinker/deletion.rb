# frozen_string_literal: true

module Heddle
  module Check
    class Shrinker
      # Passes that make the sequence shorter: deleting elements (alone, in
      # runs, with the numbers after them stepped, or merged into a
      # neighbour), refused attempts, and the choices between two
      # collections (joining them).
      module Deletion
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
            next i += 1 unless current.span_elements[i]

            i += 1 unless delete_element(current, i)
          end
        end

        def delete_element(choices, index)
          start, finish = span_range(choices, index)
          return delete_siblings(choices, index) || true if consider([cut(choices.values, start, finish)])

          consider([cut_and_step(choices, start, finish)])
        end

        # An element deleted while every number after it steps one toward its
        # target: numbers that point at positions (`[0, 2, 1]`, where 1 and 2
        # point at each other) keep pointing at the same elements.
        def cut_and_step(choices, start, finish)
          steps = numeric_positions(choices).filter_map do |p|
            value = choices.values[p]
            target = choices.targets[p]
            [p, value > target ? value - 1 : value + 1] if p >= finish && value != target
          end
          cut(with(choices.values, steps), start, finish)
        end

        def delete_siblings(choices, index)
          ends = sibling_ends(choices, index)
          start = choices.span_starts[index]
          find_integer { |n| n < ends.size && consider([cut(choices.values, start, ends[n])]) }
        end

        # Where the run of adjacent spans drawn like index (see #sibling?)
        # ends, after 1, 2, ... of them.
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
            i += 1 unless current.span_elements[i] && merge_element(current, i)
          end
        end

        def merge_element(choices, index)
          start, finish = span_range(choices, index)
          inside = numeric_positions(choices).select { |p| p >= start && p < finish }
          return false unless inside.size == 1

          amount = choices.values[inside[0]] - choices.targets[inside[0]]
          partners = merge_partners(choices, start, finish)
          !amount.zero? && consider(partners.filter_map { |j| merged(choices, j, amount, start, finish) })
        end

        # The values with amount added at position and start...finish deleted; nil out of range.
        def merged(choices, position, amount, start, finish)
          value = choices.values[position] + amount
          return nil unless value.between?(choices.mins[position], choices.maxs[position])

          cut(with(choices.values, position => value), start, finish)
        end

        # The nearest number after the span, then the nearest before it.
        def merge_partners(choices, start, finish)
          numbers = numeric_positions(choices)
          [numbers.find { |p| p >= finish }, numbers.reverse_each.find { |p| p < start }].compact
        end

        # Joins neighbouring collections: deletes a collection's "no more"
        # with the "another?" of the element after it, so that
        # `[[0, 0], [0]]` becomes `[[0, 0, 0]]` (Hypothesis deletes any two
        # consecutive choices; these are the pairs that can join).
        def join_collections
          i = 0
          while i < current.span_starts.size
            stop = current.span_starts[i] - 1
            i += 1 unless current.span_elements[i] && stop?(current, stop) &&
                          consider([cut(current.values, stop, stop + 2)])
          end
        end

        # Whether the choice is a collection's "no more": a 0 of 0..1 that
        # no span starts with.
        def stop?(choices, position)
          position >= 0 && choices.values[position].eql?(0) && choices.maxs[position] == 1 &&
            choices.mins[position].zero? && !choices.span_starts.include?(position)
        end
      end
    end
  end
end
