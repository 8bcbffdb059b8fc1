# frozen_string_literal: true

module Heddle
  module Concurrently
    # Concurrently::Proc::Evaluation::RescueableError: the errors that
    # conclude an evaluation instead of leaving the loop (StandardError,
    # ScriptError, SystemStackError, SecurityError, as heddle's pooled fibers
    # rescue them). Concurrently appends this module to those classes, so
    # `rescue RescueableError`, `RescueableError === error` and
    # `error.is_a?(RescueableError)` hold for them; so does this one. An
    # empty module: the classes gain an ancestor and no method.
    module RescueableError
      [ScriptError, StandardError, SystemStackError, SecurityError].each do |error_class|
        append_features(error_class)
      end
    end
  end
end
