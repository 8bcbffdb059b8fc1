# frozen_string_literal: true

module Heddle
  module Concurrently
    # Concurrently::Proc::Fiber: the class of the fibers concurrent procs run
    # in, once heddle/concurrently is loaded (Proc::PooledFiber.fiber_class),
    # so that code written for Concurrently can tell them with is_a? or
    # `case Fiber.current when Concurrently::Proc::Fiber`. A plain subclass:
    # heddle's pooled fibers behave as before.
    class ProcFiber < ::Fiber
      # Concurrently's constant of the same name (its fibers' default
      # evaluation list); kept for code that refers to it.
      EMPTY_EVALUATION_BUCKET = [].freeze
    end
  end
end
