# frozen_string_literal: true

module Loom
  module Check
    module Arbitraries
      # Arrays of values from one arbitrary. Without `max:` the length follows
      # the run's size (small first). One draw in EDGE_ODDS has the minimum
      # length (the empty array when allowed).
      #
      # Shrinking, best first: drop chunks (everything, halves, quarters, ...,
      # single elements), then merge neighbours of summable elements
      # (`[60, 50]` -> `[110]`, so that "sum > 100" ends at `[101]`, not
      # `[51, 50]`), then shrink each element in place.
      class Array < Arbitrary
        EDGE_ODDS = 8
        # Attempts per wanted element when values must be unique (sets, hash keys).
        UNIQUE_ATTEMPTS = 10

        # @param element [Arbitrary]
        # @param min [Integer] minimum length
        # @param max [Integer, nil] maximum length (nil: the run's size)
        # @param unique_by [Proc, nil] elements must differ in this (realized) key
        # @raise [ArgumentError] for a negative min or max < min
        def initialize(element, min: 0, max: nil, unique_by: nil)
          super()
          unless min.is_a?(::Integer) && min >= 0 && (max.nil? || (max.is_a?(::Integer) && max >= min))
            raise ArgumentError, "collection needs 0 <= min <= max, got min: #{min.inspect}, max: #{max.inspect}"
          end

          @element = element
          @min = min
          @max = max
          @unique_by = unique_by
        end

        # @see Arbitrary#generate
        def generate(rng, size)
          length = rng.rand(EDGE_ODDS).zero? ? @min : rng.rand(@min..(@max || [@min, size].max))
          return ::Array.new(length) { @element.generate(rng, size) } unless @unique_by

          generate_unique(rng, size, length)
        end

        # @see Arbitrary#realize
        def realize(raw) = @element.plain? ? raw.dup : raw.map { |r| @element.realize(r) }

        # @see Arbitrary#plain?
        def plain? = false

        # @see Arbitrary#shrink
        def shrink(raw)
          candidates = Enumerator.new do |out|
            removals(raw) { |c| out << c }
            merges(raw) { |c| out << c }
            element_shrinks(raw) { |c| out << c }
          end
          @unique_by ? candidates.lazy.select { |c| unique?(c) } : candidates
        end

        # Yields raw with chunks removed: all removable elements, then halves,
        # quarters, ... down to single elements, never below min.
        #
        # @param raw [::Array] @param min [::Integer]
        # @yieldparam candidate [::Array]
        # @return [void]
        def self.removals(raw, min)
          chunk = raw.size - min
          while chunk.positive?
            0.step(raw.size - chunk, chunk) { |at| yield raw[0, at] + raw[(at + chunk)..] }
            chunk /= 2
          end
        end

        # @return [String]
        def inspect = "array(#{@element.inspect}, min: #{@min}, max: #{@max.inspect})"

        private

        def generate_unique(rng, size, length)
          out = []
          seen = {}
          (length * UNIQUE_ATTEMPTS).times do
            break if out.size >= length

            raw = @element.generate(rng, size)
            key = @unique_by.call(@element.realize(raw))
            out << raw unless seen.key?(key)
            seen[key] = true
          end
          out
        end

        def unique?(raw)
          keys = raw.map { |r| @unique_by.call(@element.realize(r)) }
          keys.uniq.size == keys.size
        end

        def removals(raw, &) = self.class.removals(raw, @min, &)

        def merges(raw)
          return unless @element.summable? && raw.size > @min

          (raw.size - 1).times do |i|
            sum = raw[i] + raw[i + 1]
            yield raw[0, i] + [sum] + raw[(i + 2)..] if @element.cover?(sum)
          end
        end

        def element_shrinks(raw)
          raw.each_with_index do |part, i|
            @element.shrink(part).each { |c| yield replace_at(raw, i, c) }
          end
        end
      end
    end
  end
end
