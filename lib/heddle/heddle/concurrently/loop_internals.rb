# frozen_string_literal: true

module Heddle
  module Concurrently
    # The constants of Concurrently's event loop internals
    # (Concurrently::EventLoop::Fiber, ::IOSelector, ::ProcFiberPool,
    # ::RunQueue), so that code naming them loads. heddle's loop has none of
    # these parts (no loop fiber, no run-queue carts), so no instance of
    # them is ever made: `Concurrently::EventLoop::Fiber === Fiber.current`
    # is false, as code runs in heddle's loop only inside concurrent procs
    # or the fiber that waits (docs/core.md, "Drop-in Concurrently").
    module LoopInternals
      # Concurrently's loop fiber.
      class Fiber < ::Fiber; end
      # Concurrently's IO readiness registry (heddle's: EventLoop#io).
      class IOSelector; end # rubocop:disable Lint/EmptyClass -- a name Concurrently code may refer to
      # Concurrently's pool of proc fibers (heddle's: EventLoop#pool).
      class ProcFiberPool; end # rubocop:disable Lint/EmptyClass -- a name Concurrently code may refer to

      # Concurrently's run queue, with its constants (the slots of a cart).
      class RunQueue
        # A cart's slot for its evaluation.
        EVALUATION = 0
        # A cart's slot for its due time.
        TIME = 1
        # A cart's slot for its resume value.
        RESULT = 2
        # Concurrently's sorted track of carts.
        class Track < Array; end
      end
    end
  end
end
