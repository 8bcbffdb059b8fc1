# frozen_string_literal: true

# Promises: Heddle::Promise, which any thread or fiber can resolve and any number
# of threads and fibers can wait on (see docs/promises.md).
require_relative "procs"
require_relative "promises/all_rejected_error"
require_relative "promises/already_resolved_error"
require_relative "promises/block_waiter"
require_relative "promises/evaluation_awaiter"
require_relative "promises/evaluation_promise"
require_relative "promises/fiber_waker"
require_relative "promises/loop_mailbox"
require_relative "promises/owner_watch"
require_relative "promises/parker"
require_relative "promises/promise"
require_relative "promises/spinner"
require_relative "promises/timed_parker"
require_relative "promises/timeout_error"

Heddle::Proc::Evaluation.include(Heddle::Promises::EvaluationPromise)
Heddle::EventLoop.on_fork { Heddle::Promises::OwnerWatch.reset } # the parent's watchers are not in the child
