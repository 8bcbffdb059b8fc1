# frozen_string_literal: true

# `require`, not require_relative: installed, heddle and heddle-check are separate gems.
require "heddle"

require_relative "check/arbitraries"
require_relative "check/backtrace"
require_relative "check/command"
require_relative "check/engine"
require_relative "check/errors"
require_relative "check/failure"
require_relative "check/failure_store"
require_relative "check/handler"
require_relative "check/isolation"
require_relative "check/options"
require_relative "check/property"
require_relative "check/registry"
require_relative "check/remote_error"
require_relative "check/result"
require_relative "check/runners"
require_relative "check/shrinker"
require_relative "check/sizing"
require_relative "check/stateful"
require_relative "check/statistics"
require_relative "check/targeting"
require_relative "check/version"

module Heddle
  # Property-based checks whose runs spread over heddle's workers, with
  # shrinking to minimal counterexamples. Opt-in: `require "heddle/check"`.
  #
  # @example
  #   prop = Heddle::Check.property(Heddle::Check.array(Heddle::Check.integer)) { |a| a.sum <= 100 }
  #   Heddle::Check.assert(prop, seed: 42) # raises Heddle::Check::Failure, counterexample [101]
  module Check
    extend Arbitraries

    # Builds a property: a block over values of the given arbitraries. It
    # fails when the block raises or returns false.
    #
    # @example Positional
    #   Heddle::Check.property(Heddle::Check.integer, Heddle::Check.integer) { |a, b| a + b == b + a }
    # @example Keywords
    #   Heddle::Check.property(x: Heddle::Check.integer, y: Heddle::Check.nat) { |x:, y:| x + y >= x }
    # @param arbitraries [Array<Arbitrary>]
    # @param keywords [Hash{Symbol => Arbitrary}]
    # @return [Property]
    # @raise [ArgumentError] without a block or arbitraries, or with both shapes
    def self.property(*arbitraries, **keywords, &block) = Property.new(arbitraries, keywords, block)

    # Builds a model-based property: random command sequences run against a
    # fresh system under test, checked against a model. See {Stateful}.
    #
    # @example
    #   prop = Heddle::Check.stateful(initial: -> { 0 }, sut: -> { Counter.new }) do |m|
    #     m.command :incr, run: ->(c) { c.incr }, next_state: ->(n) { n + 1 }, post: ->(n, r) { r == n + 1 }
    #   end
    # @param initial [Proc] returns a fresh model state
    # @param sut [Proc] returns a fresh system under test
    # @param cleanup [Proc, nil] called with the system under test after each sequence
    # @param max_commands [Integer] longest sequence
    # @yieldparam model [Stateful] declare commands with model.command
    # @return [Property]
    def self.stateful(initial:, sut:, cleanup: nil, max_commands: Stateful::MAX_COMMANDS)
      spec = Stateful.new(initial: initial, sut: sut, cleanup: cleanup)
      yield spec
      spec.to_property(max_commands)
    end

    # Runs a property and returns the outcome, failed or not.
    #
    # @example
    #   result = Heddle::Check.check(prop, worker: :process, runs: 1000)
    #   result.counterexample if result.failed?
    # @param property [Property, Symbol] a property, or the name of one given to {.register}
    # @param options [Hash] worker: (:inline, :fiber, :thread, :process, :ractor, :redis), size: (workers),
    #   runs: (100), seed:, max_shrinks: (1000), timeout: (seconds, whole check), max_size: (30),
    #   url: (worker: :redis only; the property must be registered, see docs/redis.md),
    #   store: (false, or a folder; default .heddle-check/, see {FailureStore}), label: and target: (Procs of
    #   the arguments, see {Statistics} and {Targeting})
    # @return [Result]
    # @raise [ArgumentError] for an unknown option
    # @raise [TypeError] for something that is neither a property nor a registered name
    # @raise [HarnessError, Heddle::Workers::Error] when the machinery fails (never shrunk as a failure)
    def self.check(property, **options)
      property = Registry.fetch(property) if property.is_a?(Symbol) || property.is_a?(String)
      raise TypeError, "expected a Heddle::Check::Property, got #{property.inspect}" unless property.is_a?(Property)

      Engine.new(property, Options.parse(options)).run
    end

    # @api private
    # Splits the arguments of `assert_property` / `check_property`: a
    # Property or arbitraries (with the block), and keywords that are either
    # keyword arbitraries or options.
    #
    # @return [(Property, Hash)]
    def self.split_property_arguments(positional, keywords, block)
      arbitraries, options = keywords.partition { |_, v| v.is_a?(Arbitrary) }.map(&:to_h)
      return [positional.first, options] if positional.size == 1 && positional.first.is_a?(Property) && !block

      [property(*positional, **arbitraries, &block), options]
    end

    # Runs a property and raises when it fails.
    #
    # @example
    #   Heddle::Check.assert(Heddle::Check.property(Heddle::Check.integer) { |x| x + 0 == x }, worker: :thread)
    # @param property [Property]
    # @param options [Hash] as for {.check}
    # @return [Result] the passed result
    # @raise [Failure] with the seed, runs, shrinks, counterexample, error and how to replay
    def self.assert(property, **options)
      result = check(property, **options)
      raise Failure, result if result.failed?

      result
    end
  end
end
