# frozen_string_literal: true

module Heddle
  module Check
    class Shrinker
      # Passes that move two nearby integers at once (Hypothesis's
      # lower_integers_together and redistribute_numeric_pairs).
      module Pairs
        # How many numeric choices ahead a pair pass looks (Hypothesis: 3 to 4).
        WINDOW = 4

        private

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

        # Yields pairs of numeric choices at most WINDOW apart, the first not
        # at its target, with their values and the first's direction to it;
        # moves on to the next first choice after a change.
        def each_pair
          a = 0
          while a < (positions = numeric_positions(current)).size
            i = positions[a]
            positions[a + 1, WINDOW].each do |j|
              vi = current.values[i]
              break if vi == current.targets[i]

              before = @best
              yield i, j, vi, current.values[j], vi > current.targets[i] ? 1 : -1
              break unless @best.equal?(before)
            end
            a += 1
          end
        end

        def shift(changes)
          return false unless changes.all? { |i, v| i < current.size && v.between?(current.mins[i], current.maxs[i]) }

          consider([with(current.values, changes)])
        end
      end
    end
  end
end
