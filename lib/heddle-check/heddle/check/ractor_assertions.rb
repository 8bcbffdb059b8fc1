# frozen_string_literal: true

require "minitest"

module Heddle
  module Check
    # The `self` of a property block written in a Minitest test when it runs
    # in a ractor (`worker: :ractor`): Minitest's assertions, raising
    # `Minitest::Assertion` with Minitest's messages, so that they count as
    # the property's failures there too.
    #
    # A ractor cannot share the test, and Minitest's own assertion methods
    # cannot run in a ractor (they read non-shareable constants such as
    # `Minitest::Assertions::E` and module state: Ractor::IsolationError), so
    # {Isolation} evaluates such a block with this object as self. The
    # test's own helper methods are not available in a ractor.
    #
    # @example
    #   assert_property(C.integer, C.integer, worker: :ractor) { |a, b| assert_equal a + b, b + a }
    class RactorAssertions
      # Stands for "no third argument" (assert_operator used as a predicate).
      NO_ARG = Ractor.make_shareable(Object.new)

      # @return [RactorAssertions] the one, shareable instance
      def self.instance = INSTANCE

      # @return [Boolean] true
      # @raise [Minitest::Assertion] unless test
      def assert(test, msg = nil)
        return true if test

        msg ||= "Expected #{mu_pp(test)} to be truthy."
        raise ::Minitest::Assertion, msg.is_a?(::Proc) ? msg.call : msg, outside_frames
      end

      # @return [Boolean] true
      def refute(test, msg = nil) = assert(!test, message(msg) { "Expected #{mu_pp(test)} to not be truthy" })

      # @return [Boolean] true
      def assert_equal(exp, act, msg = nil)
        assert(exp == act, message(msg, "") { "Expected: #{mu_pp(exp)}\n  Actual: #{mu_pp(act)}" })
      end

      # @return [Boolean] true
      def refute_equal(exp, act, msg = nil)
        assert(exp != act, message(msg) { "Expected #{mu_pp(act)} to not be equal to #{mu_pp(exp)}" })
      end

      # @return [Boolean] true
      def assert_nil(obj, msg = nil) = assert(obj.nil?, message(msg) { "Expected #{mu_pp(obj)} to be nil" })

      # @return [Boolean] true
      def refute_nil(obj, msg = nil) = assert(!obj.nil?, message(msg) { "Expected #{mu_pp(obj)} to not be nil" })

      # @return [Boolean] true
      def assert_operator(left, operator, right = NO_ARG, msg = nil)
        return assert_predicate(left, operator, msg) if NO_ARG.equal?(right)

        assert(left.__send__(operator, right),
               message(msg) { "Expected #{mu_pp(left)} to be #{operator} #{mu_pp(right)}" })
      end

      # @return [Boolean] true
      def refute_operator(left, operator, right = NO_ARG, msg = nil)
        return refute_predicate(left, operator, msg) if NO_ARG.equal?(right)

        assert(!left.__send__(operator, right),
               message(msg) { "Expected #{mu_pp(left)} to not be #{operator} #{mu_pp(right)}" })
      end

      # @return [Boolean] true
      def assert_predicate(obj, predicate, msg = nil)
        assert(obj.__send__(predicate), message(msg) { "Expected #{mu_pp(obj)} to be #{predicate}" })
      end

      # @return [Boolean] true
      def refute_predicate(obj, predicate, msg = nil)
        assert(!obj.__send__(predicate), message(msg) { "Expected #{mu_pp(obj)} to not be #{predicate}" })
      end

      # @return [Boolean] true
      def assert_includes(collection, obj, msg = nil)
        assert(collection.include?(obj), message(msg) { "Expected #{mu_pp(collection)} to include #{mu_pp(obj)}" })
      end

      # @return [Boolean] true
      def refute_includes(collection, obj, msg = nil)
        assert(!collection.include?(obj),
               message(msg) { "Expected #{mu_pp(collection)} to not include #{mu_pp(obj)}" })
      end

      # @return [Boolean] true
      def assert_empty(obj, msg = nil) = assert(obj.empty?, message(msg) { "Expected #{mu_pp(obj)} to be empty" })

      # @return [Boolean] true
      def refute_empty(obj, msg = nil)
        assert(!obj.empty?, message(msg) { "Expected #{mu_pp(obj)} to not be empty" })
      end

      # @return [Boolean] true
      def assert_kind_of(cls, obj, msg = nil)
        assert(obj.is_a?(cls), message(msg) { "Expected #{mu_pp(obj)} to be a kind of #{cls}, not #{obj.class}" })
      end

      # @return [Boolean] true
      def assert_instance_of(cls, obj, msg = nil)
        assert(obj.instance_of?(cls),
               message(msg) { "Expected #{mu_pp(obj)} to be an instance of #{cls}, not #{obj.class}" })
      end

      # @return [MatchData] the match
      def assert_match(matcher, obj, msg = nil)
        matcher = Regexp.new(Regexp.escape(matcher)) if matcher.is_a?(String)
        assert(matcher =~ obj, message(msg) { "Expected #{mu_pp(matcher)} to match #{mu_pp(obj)}" })
        Regexp.last_match
      end

      # @return [Boolean] true
      def refute_match(matcher, obj, msg = nil)
        matcher = Regexp.new(Regexp.escape(matcher)) if matcher.is_a?(String)
        assert(matcher !~ obj, message(msg) { "Expected #{mu_pp(matcher)} to not match #{mu_pp(obj)}" })
      end

      # @return [Boolean] true
      def assert_in_delta(exp, act, delta = 0.001, msg = nil)
        difference = (exp - act).abs
        assert(delta >= difference, message(msg) { "Expected |#{exp} - #{act}| (#{difference}) to be <= #{delta}" })
      end

      # @return [Boolean] true
      def assert_same(exp, act, msg = nil)
        assert(exp.equal?(act), message(msg) { "Expected #{mu_pp(act)} to be the same as #{mu_pp(exp)}" })
      end

      # @return [Boolean] true
      def assert_respond_to(obj, meth, msg = nil)
        assert(obj.respond_to?(meth), message(msg) { "Expected #{mu_pp(obj)} (#{obj.class}) to respond to ##{meth}" })
      end

      # @param expected [Array<Class>] exception classes (StandardError when none), then an optional message
      # @return [Exception] the exception raised
      def assert_raises(*expected)
        msg = "#{expected.pop}.\n" if expected.last.is_a?(String)
        expected << StandardError if expected.empty?
        begin
          yield
        rescue *expected => e
          return e
        rescue ::Minitest::Assertion, SignalException, SystemExit
          raise
        rescue Exception => e # rubocop:disable Lint/RescueException -- as Minitest: any other is a failure
          flunk "#{msg}#{mu_pp(expected)} exception expected, not\nClass: <#{e.class}>\nMessage: <#{e.message.inspect}>"
        end
        flunk "#{msg}#{mu_pp(expected.size == 1 ? expected.first : expected)} expected but nothing was raised."
      end

      # @raise [Minitest::Assertion] always
      def flunk(msg = nil) = assert(false, msg || "Epic Fail!")

      # @return [Boolean] true
      def pass(_msg = nil) = true

      private

      def mu_pp(obj) = obj.inspect

      # The backtrace from the property's line on, as Minitest's reports
      # leave out Minitest's own frames.
      def outside_frames = caller.drop_while { |line| line.start_with?(__FILE__) }

      # Minitest's: the caller's message, then the default one.
      def message(msg = nil, ending = nil, &default)
        proc do
          text = msg.is_a?(::Proc) ? msg.call.chomp(".") : msg
          custom = "#{text}.\n" unless text.nil? || text.to_s.empty?
          "#{custom}#{default.call}#{ending || '.'}"
        end
      end

      INSTANCE = Ractor.make_shareable(new)
      private_constant :INSTANCE
    end
  end
end
