# frozen_string_literal: true

module Heddle
  module Check
    # A predicate over generated values. Build one with {Heddle::Check.property}.
    #
    # It fails when its block raises (any exception but interrupts and exits)
    # or returns exactly `false`. Values reach the block in one of three
    # shapes, fixed at construction: one positional value, several positional
    # values, or keywords.
    class Property
      MODES = %i[single positional keywords].freeze

      # @return [Arbitrary] the arbitrary of the block's arguments
      attr_reader :arbitrary
      # @return [Proc] the block
      attr_reader :predicate
      # @return [Symbol] :single, :positional or :keywords
      attr_reader :mode
      # @return [(String, Integer)] where the property was written: its block's file and line, or, for a
      #   block of heddle-check's own (a stateful property's), the caller's; names it in the {FailureStore}
      attr_reader :origin

      # @param arbitraries [Array<Arbitrary>] positional arbitraries
      # @param keywords [Hash{Symbol => Arbitrary}] keyword arbitraries
      # @param predicate [Proc]
      # @raise [ArgumentError] without a block, without arbitraries, or with both shapes
      def initialize(arbitraries, keywords, predicate)
        raise ArgumentError, "property needs a block: property(integer) { |x| ... }" unless predicate
        if arbitraries.empty? == keywords.empty?
          raise ArgumentError, "property takes positional arbitraries or keyword arbitraries (one shape, at least one)"
        end

        @predicate = predicate
        @mode, @arbitrary = shape(arbitraries, keywords)
        @origin = origin_of(predicate)
      end

      # @param raw [Object] a raw value of #arbitrary
      # @return [Object] what the block receives (a value, an Array or a Hash)
      def args(raw) = @arbitrary.realize(raw)

      # @param args [Object] from #args
      # @return [Object] the counterexample as shown to users
      def display(args) = args

      # Runs the block once on args, in this thread (no worker).
      #
      # @param args [Object] from #args
      # @return [Object] the block's result
      # @raise [PropertyFalse] when the block returns false
      def call(args) = Handler.invoke(@predicate, @mode, args)

      # @return [String]
      def inspect = "#<Heddle::Check::Property #{@mode} #{@arbitrary.inspect}>"

      private

      # The block's own location unless it is heddle-check's; the caller's
      # is looked up only then, as it costs a walk of the stack.
      def origin_of(predicate)
        file, line = predicate.source_location
        return [file, line] if file && !Backtrace.internal?(file)

        frame = caller_locations.find { |f| !Backtrace.internal?(f.absolute_path || f.path) }
        frame ? [frame.absolute_path || frame.path, frame.lineno] : ["unknown", 0]
      end

      def shape(arbitraries, keywords)
        (arbitraries + keywords.values).each do |a|
          next if a.is_a?(Arbitrary)

          raise TypeError, "property takes Heddle::Check arbitraries, got #{a.inspect}; wrap values in constant(...)"
        end
        return [:keywords, Arbitraries::FixedHash.new(keywords)] if keywords.any?
        return [:single, arbitraries.first] if arbitraries.size == 1

        [:positional, Arbitraries::Tuple.new(arbitraries)]
      end
    end
  end
end
