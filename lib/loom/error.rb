# frozen_string_literal: true

module Loom
  # The base class of every error loom raises on purpose. Rescue it to catch
  # anything loom reports; each part defines specific subclasses beside the
  # code that raises them.
  class Error < StandardError; end

  # What every loom timeout means: a wait with a time limit gave up. Each part
  # raises its own class, under that part's error class so that rescuing the
  # part's errors still catches it ({Evaluation::TimeoutError} <
  # Evaluation::Error, {Promise::TimeoutError}, {Workers::TimeoutError} <
  # Workers::Error, {Check::TimeoutError} < Check::HarnessError), and every
  # one of them is a Loom::TimeoutError: one rescue catches any of them.
  # @example
  #   begin
  #     Loom::Promise.new.value!(0.01)
  #   rescue Loom::TimeoutError => e
  #     e.class # => Loom::Promise::TimeoutError
  #   end
  module TimeoutError; end
end
