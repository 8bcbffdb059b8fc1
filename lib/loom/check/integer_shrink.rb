# frozen_string_literal: true

module Loom
  module Check
    # Shrink candidates for an integer: the target first, then points between
    # the target and the failing value in ascending distance from the target.
    #
    # The points are a coarse grid (sixteenths of the distance) and a tail
    # that halves the gap to the failing value (v - d/2, v - d/4, ... v - 1).
    # The first failing candidate is therefore the smallest failing point of a
    # grid that is dense near the failing value: each step narrows the gap to
    # the boundary by up to 16x (where Pbt only halves toward the target and
    # stalls, e.g. at 114 for `x > 100`), and the search ends on the exact
    # boundary because v - 1 is always a candidate (and v - 2, which keeps
    # the parity, so that `nat.filter(&:even?)` also ends on its boundary).
    module IntegerShrink
      # Grid divisions of the distance; 16 keeps a step to ~35 candidates.
      GRID = 16

      # @param value [Integer] the failing value
      # @param target [Integer] the simplest value allowed
      # @return [Array<Integer>] candidates, best first
      def self.candidates(value, target)
        distance = value - target
        return Arbitrary::EMPTY if distance.zero?

        points = grid(target, distance) + tail(value, distance)
        points.uniq!
        points.select! { |p| between?(p, target, value) }
        points.sort_by! { |p| (p - target).abs }
        points.unshift(target)
      end

      def self.grid(target, distance)
        return [] if distance.abs < GRID * 2

        Array.new(GRID - 1) { |i| target + ((distance * (i + 1)) / GRID) }
      end

      def self.tail(value, distance)
        sign = distance.positive? ? 1 : -1
        gap = distance.abs / 2
        out = [value - (sign * 2)] # the next value of the same parity, for filters like `even?`
        while gap.positive?
          out << (value - (sign * gap))
          gap /= 2
        end
        out
      end

      def self.between?(point, target, value)
        target < value ? point > target && point < value : point < target && point > value
      end

      private_class_method :grid, :tail, :between?
    end
  end
end
