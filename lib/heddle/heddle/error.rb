# frozen_string_literal: true

module Heddle
  # The base class of every error heddle raises on purpose. Rescue it to catch
  # anything heddle reports; each part defines specific subclasses beside the
  # code that raises them.
  class Error < StandardError
    # A short, bounded description of a value for error messages (an item, an
    # argument): its inspect cut at 80 characters, or its class when inspect
    # itself fails. Every subclass answers it too (Workers::Error.describe).
    # @param value [Object]
    # @return [String]
    # @example
    #   Heddle::Error.describe([1, 2]) # => "[1, 2]"
    def self.describe(value)
      text = Kernel === value ? value.inspect : INSPECT.bind_call(value) # rubocop:disable Style/CaseEquality -- a BasicObject has no is_a?
      text.length > 80 ? "#{text[0, 77]}..." : text
    rescue StandardError
      "#<#{CLASS.bind_call(value)}>"
    end

    # @param value [Object]
    # @return [Class] the class of +value+, a BasicObject's too
    # @example
    #   Heddle::Error.class_of(BasicObject.new) # => BasicObject
    def self.class_of(value)
      CLASS.bind_call(value)
    end

    # Kernel#inspect and #class, for values that may not have them (a BasicObject).
    INSPECT = Kernel.instance_method(:inspect)
    CLASS = Kernel.instance_method(:class)
    private_constant :INSPECT, :CLASS
  end

  # What every heddle timeout means: a wait with a time limit gave up. Each part
  # raises its own class, under that part's error class so that rescuing the
  # part's errors still catches it ({Evaluation::TimeoutError} <
  # Evaluation::Error, {Promise::TimeoutError}, {Workers::TimeoutError} <
  # Workers::Error, {Check::TimeoutError} < Check::HarnessError), and every
  # one of them is a Heddle::TimeoutError: one rescue catches any of them.
  # @example
  #   begin
  #     Heddle::Promise.new.value!(0.01)
  #   rescue Heddle::TimeoutError => e
  #     e.class # => Heddle::Promise::TimeoutError
  #   end
  module TimeoutError; end
end
