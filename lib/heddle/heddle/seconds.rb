# frozen_string_literal: true

module Heddle
  # The one check of a duration argument, for every heddle API that takes
  # seconds (waits' +within:+, Heddle.wait, Heddle.with_timeout, a promise's
  # timeout, the workers' +timeout:+ and +item_timeout:+). The sites differ
  # only in the rule, so the rule is a parameter:
  #
  # - +:any+: any real number; a negative one is a time already over (a wait
  #   that ends at once, as in Concurrently);
  # - +:non_negative+: at least 0;
  # - +:positive+: more than 0 (a workers' timeout of 0 could never be met).
  #
  # A value of the wrong kind raises TypeError, one out of range (or NaN)
  # ArgumentError, both naming the parameter and the value, before the
  # caller touches any state. Float::INFINITY always means no limit.
  module Seconds
    # What each rule allows, as the messages say it.
    RULES = {
      any: "a real number of seconds (Numeric)",
      non_negative: "a number of seconds >= 0 (Numeric)",
      positive: "a number of seconds > 0 (Numeric)"
    }.freeze

    # The longest finite duration: a hundred years. Longer ones no clock
    # or timed wait can honour (Ruby's timed waits raise RangeError far
    # beyond it); Float::INFINITY says "no limit".
    LONGEST = 100 * 365 * 86_400

    module_function

    # @param value [Object] the argument as given
    # @param name [String] the parameter, as the message names it ("within:")
    # @param rule [Symbol] one of {RULES}' keys
    # @param no_limit [String, nil] how the caller says "no limit", for the message
    # @return [Numeric, nil] +value+; nil for Float::INFINITY (no limit)
    # @raise [TypeError] unless +value+ is a real number
    # @raise [ArgumentError] for NaN, a value the rule refuses, or one past {LONGEST}
    # @example
    #   Heddle::Seconds.check!(0.5, "within:", :non_negative) # => 0.5
    #   Heddle::Seconds.check!(Float::INFINITY, "within:")    # => nil
    def check!(value, name, rule = :any, no_limit: nil)
      raise TypeError, message(value, name, rule, no_limit) unless Numeric === value && value.real? # rubocop:disable Style/CaseEquality -- a BasicObject has no is_a?
      return nil if value == Float::INFINITY
      return value if allows?(rule, value) && value <= LONGEST

      raise ArgumentError, message(value, name, rule, no_limit)
    end

    # @return [Boolean] whether +rule+ allows the real number +value+ (NaN
    #   compares false with everything, so no rule allows it)
    def allows?(rule, value)
      case rule
      when :any then value.negative? || value >= 0
      when :non_negative then value >= 0
      when :positive then value.positive?
      else raise ArgumentError, "rule must be one of #{RULES.keys.inspect}, got #{rule.inspect}"
      end
    end

    # @return [String] what went wrong, naming the parameter and the value
    def message(value, name, rule, no_limit)
      hint = no_limit ? " (#{no_limit}: no limit)" : ""
      got = "#{Error.describe(value)} (#{Error.class_of(value)})"
      "#{name} must be #{RULES.fetch(rule)}, at most #{LONGEST}#{hint}, got #{got}"
    end
  end
end
