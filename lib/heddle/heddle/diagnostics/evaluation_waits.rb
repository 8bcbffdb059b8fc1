# frozen_string_literal: true

module Heddle
  module Diagnostics
    # Sends every wait of a pooled fiber through its evaluation. A
    # call_and_forget run's zero wait otherwise skips the evaluation (see
    # {Proc::PooledFiber#__wait__}), so a debugging layer that wraps the
    # evaluation's waits (HEDDLE_DEBUG's {BlockingCheck},
    # Concurrently::Debug) prepends this to {Proc::PooledFiber} to see them
    # all. Never prepended otherwise: it costs that fast path an evaluation.
    module EvaluationWaits
      # @param seconds [Numeric]
      # @return [Object] the resume value
      private def __wait__(seconds)
        __evaluation__.__send__(:__wait__, seconds)
      end

      # Prepends this to {Proc::PooledFiber} once, whichever layer asks first.
      # @return [void]
      def self.prepend_once
        Proc::PooledFiber.prepend(self) unless Proc::PooledFiber.include?(self)
      end
    end
  end
end
