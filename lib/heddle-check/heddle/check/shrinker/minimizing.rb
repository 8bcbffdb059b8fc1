# frozen_string_literal: true

module Heddle
  module Check
    class Shrinker
      # Passes that lower values: each choice alone, and equal choices
      # together.
      module Minimizing
        # Values up to this far above their target also try the values below it.
        SMALL = 16

        private

        # Lowers each choice as far as it still fails: the target, the
        # mirror of a value below the target, then a search from the target
        # up (the property is taken to fail from some distance on). An
        # element's "another?" is left to the deletion passes: lowering it cuts
        # the collection there, which deleting the elements from there on does.
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
            @element_flags[start] = true if choices.span_elements[i] && choices.span_ends[i] > start
          end
          @element_flags
        end

        def minimize_at(index)
          value = current.values[index]
          target = current.targets[index]
          return if value.eql?(target) || lower(index, target)
          return minimize_float(index, value, target) if value.is_a?(::Float)

          search(value, target, current.maxs[index]) { |v| lower(index, v) } unless settled?(index, value, target)
          below_target(index)
        end

        # Whether the value is above the target and the next simpler one
        # already passed: a search done in an earlier round would only ask
        # again what it knows. (Below the target the search also tries the
        # mirror above it.)
        def settled?(index, value, target)
          value > target && @passed.key?(with(current.values, index => value - 1))
        end

        # A small value above the target may give way to a simpler one below
        # it (`3` to `-2` when 0..2 are taken): tries them, simplest first.
        def below_target(index)
          values = current.values
          target = current.targets[index]
          distance = values[index] - target
          lowest = [target - distance + 1, current.mins[index]].max
          return unless distance.between?(2, SMALL) && lowest < target

          consider((target - 1).downto(lowest).map { |v| with(values, index => v) })
        end

        # Finds the value nearest the target that the block accepts (which
        # keeps it), trying first the mirror of a value below the target
        # (simpler), then distances 1, 2, 4, ... from the target, then
        # bisecting the last gap: minimal counterexamples are mostly small
        # numbers, which this reaches in O(log answer) tries, not O(log value).
        def search(value, target, max, &accept)
          distance = value - target
          distance = -distance if distance.negative? && target - distance <= max && yield(target - distance)
          sign = distance.positive? ? 1 : -1
          low, high = gallop(distance.abs) { |d| accept.call(target + (sign * d)) }
          while high - low > 1
            middle = (low + high) / 2
            yield(target + (sign * middle)) ? high = middle : low = middle
          end
        end

        # Distances 1, 2, 4, ... below limit until the block accepts one.
        # @return [(Integer, Integer)] the last refused distance and the first accepted one (or limit)
        def gallop(limit)
          low = 0
          probe = 1
          while probe < limit
            return [low, probe] if yield(probe)

            low = probe
            probe *= 2
          end
          [low, limit]
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
          return false unless value.between?(current.mins[index], current.maxs[index])

          plain = with(current.values, index => value)
          replayed = replay(plain)
          return false unless replayed

          lost = plain.size - replayed.choices.size
          return consider([replayed]) unless lost.positive?

          consider([replayed, cut(plain, index + 1, index + 1 + lost)])
        end

        # Lowers equal choices together: `[3, 3]` where neither 3 may change alone.
        def minimize_duplicates
          choices = current
          groups = numeric_positions(choices).group_by { |p| [choices.values[p], choices.targets[p]] }
          groups.each do |(value, target), positions|
            minimize_group(positions, value, target) if positions.size > 1 && value != target
          end
        end

        def minimize_group(positions, value, target)
          expected = value
          set = lambda do |v|
            next false unless group_settable?(positions, expected, v)

            consider([with(current.values, positions.to_h { |p| [p, v] })]).tap { |kept| expected = v if kept }
          end
          return if set.call(target)

          search(value, target, positions.map { |p| current.maxs[p] }.min) { |v| set.call(v) }
        end

        # Whether the group still holds expected everywhere and v fits each choice.
        def group_settable?(positions, expected, value)
          positions.all? do |p|
            current.values[p] == expected && value.between?(current.mins[p], current.maxs[p])
          end
        end
      end
    end
  end
end
