# frozen_string_literal: true

module Heddle
  module Soak
    # One kind of load. The runner calls {#round} again and again; a round
    # does its work, checks every result with {#check} and returns. A wrong
    # result raises {WrongResult}; any other error escaping a round counts
    # as a failure too.
    class Load
      # @return [Integer] the results checked so far
      attr_reader :checks

      def initialize
        @checks = 0
      end

      # @return [Symbol] the load's name, as --only and --skip take it
      def name = raise(NotImplementedError, "#{self.class} must define #name")

      # Runs one round.
      # @param random [Random] the soak's seeded generator
      # @return [void]
      def round(random) = raise(NotImplementedError, "#{self.class} must define #round")

      # Releases what the load keeps between rounds.
      # @return [void]
      def close; end

      private

      # @raise [WrongResult] unless actual == expected
      def check(expected, actual, what)
        @checks += 1
        return if actual == expected

        raise WrongResult, "#{name}: #{what}: expected #{expected.inspect[0, 200]}, got #{actual.inspect[0, 200]}"
      end
    end
  end
end
