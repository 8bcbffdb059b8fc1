# frozen_string_literal: true

module Heddle
  module Check
    # The record of the choices behind one generated value, and the source an
    # arbitrary draws them from.
    #
    # Every arbitrary builds its value from choices: integers in a range, each
    # with the value it shrinks toward (its *target*), and floats. Generating
    # afresh, a choice's value comes from the check's Random (with whatever
    # bias the arbitrary wants); replaying, it comes from a recorded sequence,
    # and the arbitrary builds the value again from it. Either way the choices
    # made are recorded; a replay also records each choice's range and
    # target and the spans of choices each part of the value used (an
    # array's element, a `one_of`'s branch, a bind, a recursion). Fresh draws
    # record the values only, since generation is the hot path of a check:
    # the engine replays the failing case to learn the rest.
    #
    # The shrinker works on that sequence alone ({Shrinker}), so `map`,
    # `filter`, `bind` and recursion shrink without an inverse function, as
    # in Hypothesis. A replay that reads past the recorded sequence, or a
    # choice that no longer fits its range, gets the simplest value: every
    # sequence is a valid one.
    #
    # Choices answers `rand` like Random (`rand`, `rand(n)`, `rand(range)`,
    # `rand(float)`), so an arbitrary written against a Random records (and
    # shrinks) its draws too.
    class Choices
      # How many of the latest integers a fresh draw may copy or step from.
      RECENT = 8

      # @return [Array<Integer, Float>] the choices made, in order
      attr_reader :values
      # @return [Array<Numeric>] each choice's smallest value
      attr_reader :mins
      # @return [Array<Numeric>] each choice's largest value
      attr_reader :maxs
      # @return [Array<Numeric>] each choice's simplest value
      attr_reader :targets
      # @return [Array<Integer>] where each span starts (pre-order)
      attr_reader :span_starts
      # @return [Array<Integer>] where each span ends (exclusive)
      attr_reader :span_ends
      # @return [Array<Object>] each span's label (spans of one arbitrary share it)
      attr_reader :span_labels
      # @return [Array<Integer>] spans whose choices were thrown away (filter rejections)
      attr_reader :discarded
      # @return [Array<Integer>] integers drawn by {Arbitraries::Integer} lately (fresh draws only)
      attr_reader :recent
      # @return [Integer] {#attempt}s made since this object was made (not cleared by {#reset!})
      attr_reader :attempts
      # @return [Integer] of those, how many were refused (for {Statistics}' health warning)
      attr_reader :refusals

      # @param rng [Random] the check's random source
      # @return [Choices] choices drawn afresh from rng
      def self.fresh(rng) = new(rng, nil, nil)

      # @param prefix [Array<Numeric>] the sequence to read
      # @param hole [(Integer, Integer), nil] [span index, position]: while the
      #   span of that pre-order index is open, draw simplest values, then read
      #   prefix on from position
      # @return [Choices] choices that replay prefix
      def self.replay(prefix, hole = nil) = new(nil, prefix, hole)

      # @api private
      def initialize(rng, prefix, hole)
        @rng = rng
        @values = []
        @recent = []
        @recent_next = 0
        @leaves = 0
        @nodes = 0
        @depth = 0
        @attempts = 0
        @refusals = 0
        replaying(prefix, hole) unless rng
      end

      # @api private
      # Forgets everything drawn, to draw the next value afresh with this object.
      # @return [self]
      def reset!
        @values.clear
        @recent.clear
        @recent_next = 0
        @nodes = 0
        self
      end

      # @return [Boolean] true when values come from the random source
      def fresh? = !@rng.nil?

      # @return [Random, nil] the random source when fresh
      def random = @rng

      # An integer in min..max. Fresh, the block picks it from the Random it
      # is given (nil without a block: uniform); replayed, the recorded value
      # is used (clamped into range).
      #
      # @param min [Integer] @param max [Integer] @param target [Integer] the simplest value, in min..max
      # @yieldparam rng [Random]
      # @return [Integer]
      def integer(min, max, target)
        return target if min == max

        value = if @rng
                  if block_given? then yield(@rng)
                  else @rng.rand(min..max)
                  end
                else
                  replayed_integer(min, max, target)
                end
        record(value, min, max, target)
      end

      # A Float in min..max (NaN when fresh draws give it). As {#integer}.
      #
      # @param min [Float] @param max [Float] @param target [Float]
      # @param nan [Boolean] whether a recorded NaN may be replayed
      # @yieldparam rng [Random]
      # @return [Float]
      def float(min, max, target, nan: false)
        value = if @rng then yield(@rng)
                elsif nan && @prefix[@position].is_a?(::Float) && @prefix[@position].nan? && !@hole_open
                  @prefix[(@position += 1) - 1]
                else
                  replayed(min, max, target, ::Float)
                end
        record(value, min, max, target)
      end

      # @return [Boolean] a fresh coin (or the block's pick); false is simplest
      def boolean
        integer(0, 1, 0) do |rng|
          if block_given?
            yield(rng) ? 1 : 0
          else
            rng.rand(2)
          end
        end == 1
      end

      # Records the choices the block draws as one span.
      #
      # @param label [Object] what drew them (spans of one arbitrary share it)
      # @return [Object] the block's value
      def span(label)
        index = open_span(label, false)
        result = yield
        close_span(index)
        result
      end

      # One attempt at a value that may be refused (a filter's, a unique
      # element's): a span, marked as discarded when refused, so that the
      # shrinker can drop every refused attempt at once.
      #
      # @param label [Object]
      # @yieldreturn [(Object, Boolean)] the value and whether it is kept
      # @return [(Object, Boolean)] the block's value
      def attempt(label)
        index = open_span(label, false)
        value, kept = yield
        @attempts += 1
        @refusals += 1 unless kept
        close_span(index)
        @discarded << index if index && !kept && @span_ends[index] > @span_starts[index]
        [value, kept]
      end

      # A collection's elements: one boolean "another?" choice before each
      # element beyond min (none at max), recorded with the element in its
      # span, so that deleting a span deletes an element; the final "no more"
      # is in no span. Only those spans count as elements ({#span_elements}):
      # the first min elements have no choice of their own to delete.
      #
      # @param label [Object] the collection's label
      # @param min [Integer] @param max [Integer]
      # @param length [Integer, nil] the fresh length (ignored on replay)
      # @yieldparam index [Integer] the element's index
      # @yieldreturn [Boolean] false to end the collection (e.g. no unique element found)
      # @return [void]
      def collection(label, min, max, length = nil, &)
        return fresh_collection(min, max, @leaves.positive? ? min : length, &) if @rng

        replayed_collection(label, min, max, &)
      end

      # @return [Array<Boolean>] per span, whether it is a collection's element that may be left out
      attr_reader :span_elements
      # @return [Array<Integer, nil>] per span, which collection (counted in the replay) it is an element of;
      #   nil for other spans. Two collections of one arbitrary side by side share a label, not this.
      attr_reader :span_collections

      # Runs the block in leaf mode: fresh draws of `one_of` take the first
      # branch and collections their minimum length (numbers stay random), so
      # a recursion past its size bound ends in its first branch. A replay
      # reads what was recorded, as always.
      # @return [Object] the block's value
      def leaves
        @leaves += 1
        yield
      ensure
        @leaves -= 1
      end

      # @return [Boolean] whether fresh draws are in leaf mode
      def leaves? = @leaves.positive?

      # Counts one node of a recursive value.
      # @return [Integer] nodes counted so far in this value
      def node! = @nodes += 1

      # Runs the block one level deeper in a recursive value.
      # @yieldparam depth [Integer] the nesting, 1 at the top
      # @return [Object] the block's value
      def nested
        @depth += 1
        yield @depth
      ensure
        @depth -= 1
      end

      # Records a fresh integer of an {Arbitraries::Integer} and remembers
      # it for later fresh draws to copy or step from (the hot path of
      # generation: no block, no range kept).
      # @param value [Integer] @return [Integer] value
      def fresh_integer(value)
        @values << value
        @recent[@recent_next] = value
        @recent_next = (@recent_next + 1) % RECENT
        value
      end

      # @return [Integer] how many choices were recorded
      def size = @values.size

      # Random-compatible draw, recorded: rand, rand(n), rand(a..b), rand(x.y).
      #
      # @example In a custom arbitrary
      #   def generate(rng, _size) = 1 + rng.rand(6)
      # @param limit [nil, Integer, Float, Range]
      # @return [Numeric]
      # @raise [ArgumentError] for another kind of limit
      def rand(limit = nil)
        case limit
        when nil then float(0.0, 1.0, 0.0, &:rand)
        when ::Integer then integer(0, limit - 1, 0) { |rng| rng.rand(limit) }
        when ::Float then float(0.0, limit, 0.0) { |rng| rng.rand(limit) }
        when Range then ranged(limit)
        else raise ArgumentError, "rand takes nil, an Integer, a Float or a Range, got #{limit.inspect}"
        end
      end

      # @param count [Integer] @return [String] random bytes, one choice each
      def bytes(count) = ::Array.new(count) { integer(0, 255, 0) }.pack("C*")

      private

      # A replay also records ranges, targets and spans.
      def replaying(prefix, hole)
        @prefix = prefix
        @position = 0
        @hole_span, @hole_resume = hole
        @hole_open = false
        @mins = []
        @maxs = []
        @targets = []
        @span_starts = []
        @span_ends = []
        @span_labels = []
        @span_elements = []
        @span_collections = []
        @collections = 0
        @discarded = []
      end

      # {#collection} replayed: the flags read, each element a span.
      def replayed_collection(label, min, max)
        count = 0
        collection = @collections += 1
        while count < max
          index = open_span(label, count >= min, collection)
          unless count < min || integer(0, 1, 0) == 1
            cancel_span(index)
            break
          end
          kept = yield(count)
          close_span(index)
          break if kept == false

          count += 1
        end
      end

      # {#collection} drawn afresh: the flags only, no spans.
      def fresh_collection(min, max, length)
        count = 0
        while count < max
          if count >= min
            break @values << 0 unless count < length

            @values << 1
          end
          break if yield(count) == false

          count += 1
        end
      end

      def open_span(label, element, collection = nil)
        return nil if @rng

        index = @span_starts.size
        @span_starts << @values.size
        @span_ends << nil
        @span_labels << label
        @span_elements << element
        @span_collections << collection
        @hole_open = true if index == @hole_span
        index
      end

      def close_span(index)
        return unless index

        @span_ends[index] = @values.size
        close_hole if index == @hole_span
      end

      # Forgets the span just opened (a collection's final "no more").
      def cancel_span(index)
        return unless index

        close_hole if index == @hole_span
        @span_starts.pop
        @span_ends.pop
        @span_labels.pop
        @span_elements.pop
        @span_collections.pop
      end

      def record(value, min, max, target)
        @values << value
        return value if @rng

        @mins << min
        @maxs << max
        @targets << target
        value
      end

      # The next recorded value as an integer of min..max (the hot path of a replay).
      def replayed_integer(min, max, target)
        return target if @hole_open || @position >= @prefix.size

        value = @prefix[@position]
        @position += 1
        return target unless value.is_a?(::Integer)

        value.clamp(min, max)
      end

      def replayed(min, max, target, kind)
        return target if @hole_open || @position >= @prefix.size

        value = @prefix[@position]
        @position += 1
        return target unless value.is_a?(kind) && !(kind == ::Float && value.nan?)

        value.clamp(min, max)
      end

      def close_hole
        @hole_open = false
        @position = @hole_resume
      end

      def ranged(range)
        low = range.begin
        high = range.exclude_end? && low.is_a?(::Integer) ? range.end - 1 : range.end
        return float(low.to_f, high.to_f, 0.0.clamp(low, high).to_f) { |rng| rng.rand(range) } if low.is_a?(::Float)

        integer(low, high, 0.clamp(low, high)) { |rng| rng.rand(range) }
      end
    end
  end
end
