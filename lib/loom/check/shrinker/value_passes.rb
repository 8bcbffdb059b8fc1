# frozen_string_literal: true

module Loom
  module Check
    class Shrinker
      # Passes over the values of choices: one at a time, equal ones
      # together, two near each other together or in opposite directions.
      module ValuePasses
        # How many numeric choices ahead a pair pass looks (Hypothesis: 3 to 4).
        WINDOW = 4
        # Values up to this far above their target also try the values below it.
        SMALL = 16

        private

        # Lowers each choice as far as it still fails: the target, the
        # mirror of a value below the target, then a search from the target
        # up (the property is taken to fail from some distance on).
        # An element's "another?" is left to the deletion passes: lowering it
        # cuts the collection there, which deleting the elements from there on
        # also does.
        def minimize_choices
          i = 0
          while i < current.size
            minimize_at(i) unless element_flags(current)[i]
            i += 1
          end
        end

        # Per position, whether it is the "another?" that starts an element
        # (computed once per case).
        def element_flags(choices)
          return @element_flags if @element_flags_of.equal?(choices)

          @element_flags_of = choices
          @element_flags = ::Array.new(choices.size, false)
          choices.span_starts.each_with_index do |start, i|
            @element_flags[start] = true if choices.span_elements[i] && choices.maxs[start] == 1 &&
                                            choices.span_ends[i] > start
          end
          @element_flags
        end

        def minimize_at(index)
          value = current.values[index]
          target = current.targets[index]
          return if value.eql?(target) || lower(index, target)
          return minimize_float(index, value, target) if value.is_a?(::Float)

          search(value, target, current.maxs[index]) { |v| lower(index, v) }
          below_target(index)
        end

        # A small value above the target may give way to a simpler one below
        # it (`3` to `-2` when 0..2 are taken): tries them, simplest first.
        def below_target(index)
          value = current.values[index]
          target = current.targets[index]
          distance = value - target
          return unless distance.between?(2, SMALL) && target - 1 >= current.mins[index]

          lowest = [target - distance + 1, current.mins[index]].max
          consider((target - 1).downto(lowest).map { |v| with(current.values, index => v) })
        end

        # Finds the value nearest the target that the block accepts (which
        # keeps it), trying first the mirror of a value below the target
        # (simpler), then distances 1, 2, 4, ... from the target, then
        # bisecting the last gap: minimal counterexamples are mostly small
        # numbers, which this reaches in O(log answer) tries, not O(log value).
        def search(value, target, max)
          distance = value - target
          distance = -distance if distance.negative? && target - distance <= max && yield(target - distance)
          sign = distance.positive? ? 1 : -1
          low = 0
          high = distance.abs
          probe = 1
          while probe < high
            break high = probe if yield(target + (sign * probe))

            low = probe
            probe *= 2
          end
          while high - low > 1
            middle = (low + high) / 2
            yield(target + (sign * middle)) ? high = middle : low = middle
          end
        end

        def minimize_float(index, value, target)
          return unless value.finite?

          whole = value.truncate.to_f
          return if !whole.eql?(value) && !lower(index, whole)
          return unless whole.abs < Order::EXACT && target.finite? && (whole - target).abs < Order::EXACT

          search((whole - target).to_i, 0, Order::EXACT) { |d| lower(index, target + d) }
        end

        # Tries value at index; when that shortens what the replay reads (a
        # smaller length or count), also with the choices right after index
        # deleted instead of those at the end (Hypothesis's repair), so that
        # `[5, 950, 3]` of length 3 can become `[950]`.
        # @return [Boolean] whether a candidate was kept
        def lower(index, value)
          values = current.values
          return false unless value.between?(current.mins[index], current.maxs[index])

          plain = with(values, index => value)
          replayed = replay(plain)
          lost = replayed ? plain.size - replayed.choices.size : 0
          return consider([plain]) unless lost.positive?

          consider([plain, cut(plain, index + 1, index + 1 + lost)])
        end

        # Lowers equal choices together: `[3, 3]` where neither 3 may change alone.
        def minimize_duplicates
          groups = Hash.new { |h, k| h[k] = [] }
          choices = current
          choices.values.each_with_index do |v, i|
            next unless v.is_a?(::Integer) && !v.eql?(choices.targets[i]) && choices.maxs[i] - choices.mins[i] > 1

            groups[[v, choices.targets[i]]] << i
          end
          groups.each { |(value, target), indices| minimize_group(indices, value, target) if indices.size > 1 }
        end

        def minimize_group(indices, value, target)
          expected = value
          set = lambda do |v|
            return false unless indices.all? { |i| current.values[i] == expected && v.between?(current.mins[i], current.maxs[i]) }

            consider([with(current.values, indices.to_h { |i| [i, v] })]).tap { |kept| expected = v if kept }
          end
          return if set.call(target)

          search(value, target, indices.map { |i| current.maxs[i] }.min) { |v| set.call(v) }
        end

        # Moves two nearby integers by the same amount, toward the first's
        # target: `[a, a - 1]` down to `[10, 9]`, a branch and a leaf at once.
        def lower_pairs
          each_pair do |i, j, vi, vj, sign|
            find_integer { |n| n <= (vi - current.targets[i]).abs && shift(i => vi - (sign * n), j => vj - (sign * n)) }
          end
        end

        # Moves two nearby integers by the same amount in opposite
        # directions, the first toward its target: `(+ 3 -3)` to `(+ 0 0)`.
        def redistribute
          each_pair do |i, j, vi, vj, sign|
            find_integer { |n| n <= (vi - current.targets[i]).abs && shift(i => vi - (sign * n), j => vj + (sign * n)) }
          end
        end

        # Yields pairs of integer choices (booleans aside) at most WINDOW
        # apart, the first not at its target; starts over after a change.
        def each_pair
          a = 0
          loop do
            positions = numeric_positions(current)
            break if a >= positions.size

            i = positions[a]
            positions[a + 1, WINDOW].each do |j|
              vi = current.values[i]
              before = @best
              yield i, j, vi, current.values[j], vi > current.targets[i] ? 1 : -1 unless vi == current.targets[i]
              break unless @best.equal?(before)
            end
            a += 1
          end
        end

        def numeric_positions(choices)
          (0...choices.size).select do |i|
            choices.values[i].is_a?(::Integer) && choices.maxs[i] - choices.mins[i] > 1
          end
        end

        def shift(changes)
          return false unless changes.all? { |i, v| v.between?(current.mins[i], current.maxs[i]) }

          consider([with(current.values, changes)])
        end
      end
    end
  end
end
