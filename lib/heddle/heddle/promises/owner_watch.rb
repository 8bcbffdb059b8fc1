# frozen_string_literal: true

require_relative "../masked_lock"
require_relative "../masks"

module Heddle
  module Promises
    # Strands the awaiters of another thread's evaluations the moment that
    # thread ends ({EvaluationAwaiter#strand}: LoopGoneError, saying how the
    # thread ended). A waiter used to look at the owner thread once a second,
    # so a wait for an evaluation whose thread died ended a second late, or
    # with a TimeoutError when its +within:+ was shorter.
    #
    # One watcher thread per owner thread (but the main thread, whose end
    # is the process's) that has awaiters from other threads, joining it;
    # it ends once no awaiter is left (looked at every {LINGER} seconds),
    # so a burst of cross-thread waits shares one.
    module OwnerWatch
      # Seconds a watcher joins its thread before it looks whether awaiters are left.
      LINGER = 1.0

      @awaiters = {}.compare_by_identity # owner thread => { awaiter => evaluation }
      @lock = MaskedLock.new

      class << self
        # Strands +awaiter+ with +evaluation+ when +thread+ ends, unless
        # {.unwatch}ed first. Starts the thread's watcher if it has none.
        # @param thread [Thread] the evaluation's loop's thread
        # @param awaiter [EvaluationAwaiter]
        # @param evaluation [Heddle::Proc::Evaluation]
        # @return [void]
        def watch(thread, awaiter, evaluation)
          return if thread.equal?(Thread.main) # its end is the process's (and it cannot be joined)

          @lock.synchronize do
            watched = @awaiters[thread]
            unless watched
              watched = @awaiters[thread] = {}.compare_by_identity
              # unmasked: a thread inherits the masks it was made under
              Thread.new(thread) { |owner| Thread.handle_interrupt(Masks::INTERRUPTIBLE) { watcher(owner) } }
            end
            watched[awaiter] = evaluation
          end
        end

        # Forgets +awaiter+ (its wait ended).
        # @param thread [Thread]
        # @param awaiter [EvaluationAwaiter]
        # @return [void]
        def unwatch(thread, awaiter)
          @lock.synchronize { @awaiters[thread]&.delete(awaiter) }
        end

        # Forgets every watch (a forked child: the parent's threads and
        # watchers do not exist there).
        # @return [void]
        def reset
          @awaiters = {}.compare_by_identity
          @lock = MaskedLock.new
        end

        private

        # Joins +owner+ until it ends (then strands its awaiters) or no
        # awaiter is left.
        def watcher(owner)
          Thread.current.report_on_exception = false
          Thread.current.name = "heddle owner watch"
          until ended?(owner)
            return if @lock.synchronize { idle?(owner) }
          end
          stranded = @lock.synchronize { @awaiters.delete(owner) } || {}
          stranded.each { |awaiter, evaluation| awaiter.strand(evaluation) }
        end

        # Under the lock: whether +owner+ has no awaiter left (forgotten then).
        def idle?(owner)
          watched = @awaiters[owner]
          watched.nil? || (watched.empty? && @awaiters.delete(owner))
        end

        def ended?(owner)
          owner.join(LINGER)
        rescue Exception # rubocop:disable Lint/RescueException -- join re-raises whatever ended the thread
          !owner.alive?
        end
      end
    end
  end
end
