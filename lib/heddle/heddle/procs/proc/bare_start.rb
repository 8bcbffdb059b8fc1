# frozen_string_literal: true

module Heddle
  # :nodoc: see proc.rb
  class Proc
    # A {Proc#call_and_forget} without arguments queues the proc itself, not
    # a {QueuedCall}: nothing needs to be kept but the proc. This module makes a
    # proc a run-queue entry: the loop starts it in a pooled fiber
    # ({#__run__}), or a pooled fiber that just finished takes it in place
    # ({#__chain_into__}), as it does a QueuedCall. No QueuedCall is taken from and given
    # back to the loop's free list per call (hot path, see the call_methods
    # benchmark).
    module BareStart
      # Starts the proc without arguments (or holds it back while too many
      # fibers are live; it comes back here when one is free).
      # @return [Object] what the pooled fiber returned
      private def __run__
        loop = (Thread.current[Evaluation::FIBER_KEY] || Evaluation.__send__(:__bind__)).__send__(:__loop__)
        pooled = PooledFiber.take(loop, self) or return
        pooled.__send__(:__start__, self, Arguments::EMPTY, nil)
      rescue FiberRefusedError => e
        trigger(:error, e)
      end

      # A free pooled fiber that finished its job runs this start next, in place.
      # @param pooled [PooledFiber]
      # @return [true]
      private def __chain_into__(pooled)
        pooled.__send__(:__take__, self, Arguments::EMPTY, nil)
        true
      end
    end

    include BareStart
  end
end
