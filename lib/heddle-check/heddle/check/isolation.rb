# frozen_string_literal: true

module Heddle
  module Check
    # Makes a property block shareable so a ractor pool can run it.
    #
    # A block written in a test has the test as `self`, which no ractor may
    # share. The rule is the one a ractor pool's block follows
    # (Heddle::Workers::Ractors::Isolation): a block Ractor.make_shareable
    # refuses is evaluated again from its source with `nil` as self, the
    # semantics of `Ractor.new` (no outer variables, no self), checked up
    # front so that a block that reads outer state is reported as a harness
    # error, not as a failing property. A block written in a Minitest test
    # gets {RactorAssertions} as self instead of nil, so that its assertions
    # work.
    module Isolation
      # @param predicate [Proc]
      # @return [Proc] a shareable Proc with the same behaviour
      # @raise [NotIsolatableError] when the block reads outer variables or self, or has no source
      def self.shareable(predicate)
        Workers::Ractors::Isolation.shareable(predicate, self_object: self_for(predicate))
      rescue Workers::Ractors::Isolation::Refused => e
        raise NotIsolatableError, message(e)
      end

      # nil, or for a block written in a Minitest test, an object with its
      # assertions that works in a ractor ({RactorAssertions}).
      def self.self_for(predicate)
        return nil unless defined?(::Minitest::Assertions) && predicate.binding.receiver.is_a?(::Minitest::Assertions)

        require_relative "ractor_assertions"
        RactorAssertions.instance
      rescue ArgumentError # a Proc made from a method has no binding
        nil
      end

      def self.message(refused)
        start = "cannot run the property block at #{refused.where} in a ractor: "
        if refused.outer.empty?
          "#{start}its source is unavailable (#{refused.message}); define it in a file, or use worker: :process"
        else
          "#{start}it reads #{refused.outer.join(', ')} from outside the block; " \
            "pass values as arbitraries (constant(...)) or use worker: :process"
        end
      end

      private_class_method :self_for, :message
    end
  end
end
