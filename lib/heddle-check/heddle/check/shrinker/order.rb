# frozen_string_literal: true

module Heddle
  module Check
    class Shrinker
      # The order that shrinking descends ("shortlex", as Hypothesis's): a
      # sequence of choices is simpler than another when it is shorter, or
      # as long and simpler at the first choice where they differ. A choice
      # is simpler the closer it is to its target, and at equal distance
      # above the target rather than below: 0, 1, -1, 2, -2, ... Floats rank
      # integral values before fractional ones, and infinities and NaN last.
      # Functions only: the shrinker asks {.simpler?} of each candidate.
      module Order
        # Floats at least this far from the target are ranked as integers no more.
        EXACT = 2**53

        # @param value [Numeric] @param target [Numeric]
        # @return [Numeric] 0 for the target, larger for less simple
        def self.rank(value, target)
          return integer_rank(value - target) if value.is_a?(::Integer) && target.is_a?(::Integer)

          float_rank(value.to_f - target.to_f)
        end

        def self.integer_rank(distance) = distance.positive? ? (2 * distance) - 1 : -2 * distance

        def self.float_rank(distance)
          return ::Float::INFINITY unless distance.finite?
          return EXACT + EXACT + distance.abs unless distance.abs < EXACT && distance == distance.truncate

          integer_rank(distance.to_i).to_f
        end

        # @param one [Choices] @param other [Choices]
        # @return [Boolean] whether one is simpler than other
        def self.simpler?(one, other)
          return one.size < other.size unless one.size == other.size

          compare_from(one, other, 0, one.size).negative?
        end

        # -1, 0 or 1 as one's choices from..to are simpler, alike or less simple than other's
        def self.compare_from(one, other, from, to)
          a = one.values
          b = other.values
          i = from
          while i < to
            unless a[i].eql?(b[i])
              ranks = Order.rank(a[i], one.targets[i]) <=> Order.rank(b[i], other.targets[i])
              return ranks unless ranks.zero?
            end
            i += 1
          end
          0
        end

        private_class_method :compare_from

        # A sortable key of the choices from..to (shorter first, then by rank)
        def self.slice_key(choices, from, to)
          [to - from, *(from...to).map { |i| Order.rank(choices.values[i], choices.targets[i]) }]
        end
      end
    end
  end
end
