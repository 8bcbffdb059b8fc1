# frozen_string_literal: true

module Heddle
  # The messages heddle's own objects send one another, in one place. Every
  # method named +__x__+ in heddle is one of these, and every one is private
  # but {PUBLIC}'s: users never see them among an object's methods, and
  # heddle's objects send them with +__send__+. Named +__x__+ so that they
  # never clash with a user's method. Heddle::ProtocolTest holds the code to
  # this list both ways.
  #
  # Each table maps a message to who answers it and what it means.
  module Protocol
    # What the {EventLoop} sends to what it holds (run-queue entries, timer
    # targets, zero-second and IO waiters). The loop knows nothing else of
    # evaluations.
    LOOP = {
      __run__: "run-queue entry: run now (start a proc, resume a fiber); a root evaluation's returns itself",
      __chain_into__: "run-queue entry: the pooled fiber given just finished; true if it ran this entry in place " \
                      "(EventLoop#chain)",
      __timeout__: "timer target: the timer given is due",
      __zero__: "zero-second waiter: the round after its wait began (the token it registered with)",
      __io_ready__: "IO waiter: its IO is ready",
      __resumed__: "what EventLoop#run_until runs until: true once resumed",
      __untaken__: "evaluation as a run-queue entry: true while its run has not begun (an interrupt left " \
                   "run_until between taking the entry and running it: the loop puts it back)"
    }.freeze

    # What EventLoop#deliver hands from another thread to run on the loop's
    # own thread, and what a fork hook calls in the child.
    DELIVERED = {
      __wake__: "an evaluation or a promise's evaluation waiter: resume if still waiting; a Group: one of its " \
                "procs concluded",
      __fire__: "Promises::FiberWaker: wake the fiber waiting on a promise if still armed",
      __drain__: "Promises::LoopMailbox: fire every waker posted to the loop so far",
      __after_fork__: "Scheduler, in a forked child: forget the parent's parked fibers"
    }.freeze

    # Between evaluations, concurrent procs and the pooled fibers that run
    # them (lib/heddle/heddle/procs): the fiber-local context answers +__evaluation__+
    # and +__loop__+ whether it is a root {Evaluation} or a {Proc::PooledFiber}.
    # What only a {Proc::PooledFiber} answers (start_job, call_job, take_job,
    # resume_kept, cancel_job, drop_wait_timer) has plain public names: the
    # pooled fiber is internal, never handed to users, and a direct call
    # saves the +__send__+ Ruby 3.1 pays on every proc's call.
    EVALUATION = {
      __bind__: "Evaluation.__bind__: give the current fiber its root evaluation",
      __evaluation__: "fiber context: the evaluation it runs (made on demand by a pooled fiber)",
      __loop__: "fiber context or evaluation: the EventLoop of its thread",
      __wait__: "fiber context: wait the seconds given (0: one round)",
      __await__: "evaluation: suspend until resumed or timed out",
      __suspended__: "evaluation: whether its fiber is in a heddle wait (read by Scheduler::Watch, another thread)",
      __adopt__: "fiber context or evaluation: keep the child evaluation started from it",
      __orphan__: "Proc::Evaluation: forget a child that concluded",
      __add_awaiter__: "Proc::Evaluation: wake this waiter when concluded",
      __remove_awaiter__: "Proc::Evaluation: stop waking this waiter",
      __await_call__: "Proc::Evaluation: the waiting #call's wait for it",
      __await_elsewhere__: "Proc::Evaluation: a wait from another thread, through a promise",
      __finished__: "Proc::Evaluation: its pooled fiber's proc returned, raised or was cancelled",
      __invoke__: "Proc: the proc's own ::Proc#call, run by a pooled fiber",
      __start__: "Proc::Evaluation: start its proc in a pooled fiber, for the loop",
      __unchain__: "Proc::Evaluation: the pooled fiber that took its start in place ended before it began: " \
                   "pending and queued again",
      __forked__: "Proc::Evaluation, in a forked child's loop: it was pending in the parent and never runs here",
      __forked_from__: "Proc::Evaluation: the pid of the process it was pending in when this one forked",
      __forked_error__: "Proc::Evaluation: the LoopGoneError awaiting a forked copy raises"
    }.freeze

    # The messages left public. A proc's own call takes the proc's arguments
    # with a splat, and on Ruby 3.1 +__send__+ with a splat allocates an
    # Array per call, which the allocation tests of a call forbid. Every call
    # of a proc asks its fiber's context for the loop, and on Ruby 3.1 a
    # +__send__+ makes that ask a noticeable share of the call (the
    # call_methods benchmark; figures in docs/journal/core.md).
    PUBLIC = %i[__invoke__ __loop__].freeze

    # @return [Array<Symbol>] every protocol message
    # @example
    #   Heddle::Protocol.messages.include?(:__run__) # => true
    def self.messages
      LOOP.keys + DELIVERED.keys + EVALUATION.keys
    end
  end
end
