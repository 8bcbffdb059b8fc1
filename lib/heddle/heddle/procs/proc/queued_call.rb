# frozen_string_literal: true

module Heddle
  class Proc
    # A run-queue entry for {Proc#call_and_forget}: a proc and its arguments,
    # started in a pooled fiber when the loop reaches it. Spent ones go back
    # to the loop's free list (EventLoop#spent_calls) for the next call_and_forget:
    # one allocation less per call (see the call_methods benchmark).
    class QueuedCall
      # A spent one from +loop+'s free list, or a new one.
      # @param loop [EventLoop]
      # @param proc [Heddle::Proc]
      # @param args [Array]
      # @return [QueuedCall]
      def self.for(loop, proc, args)
        # delete_at(-1), not pop: see EventLoop#pool.
        (call = loop.spent_calls.delete_at(-1)) ? call.reuse(proc, args) : new(loop, proc, args)
      end

      # @param loop [EventLoop]
      # @param proc [Heddle::Proc]
      # @param args [Array]
      def initialize(loop, proc, args)
        @loop = loop
        @proc = proc
        @args = args
      end

      # A free pooled fiber that finished its job runs this one next, in place.
      # @return [true]
      private def __chain_into__(pooled)
        pooled.take_job(@proc, @args, nil)
        @proc = @args = nil # recycle, inlined: hot path (call_methods benchmark)
        calls = @loop.spent_calls
        calls << self if calls.size < EventLoop::POOL_SIZE
        true
      end

      # Reuses this entry for a new run.
      # @return [QueuedCall] self
      def reuse(proc, args)
        @proc = proc
        @args = args
        self
      end

      # Starts the proc (or holds it back while too many fibers are live).
      # An interrupt that lands before the proc began queues it again.
      # @return [void]
      private def __run__
        loop = @loop
        return if loop.pool.empty? && !PooledFiber.provide(loop, self)

        # No branch or return from the take to the resume: Ruby lands interrupts there.
        pooled = loop.pool.delete_at(-1) # not pop: see EventLoop#pool
        pooled.start_job(@proc, @args, nil)
        # Kept until the job began, for #restart (docs/journal/core.md, issue 39's leftover).
        @proc = @args = nil # recycle, inlined: hot path (call_methods_waiting benchmark)
        calls = loop.spent_calls
        calls << self if calls.size < EventLoop::POOL_SIZE
      rescue FiberRefusedError => e
        @proc.trigger(:error, e)
      rescue Exception # rubocop:disable Lint/RescueException -- any interrupt; re-raised
        restart(pooled)
        raise
      end

      # Queues this call again if the interrupt left it unstarted: before the
      # take (and not held back), or taken by a fiber whose job had not begun.
      private def restart(pooled)
        return unless pooled ? pooled.give_back(@proc, @args, nil) : !@loop.held.include?(self)

        @loop.queue << self
      end
    end
  end
end
