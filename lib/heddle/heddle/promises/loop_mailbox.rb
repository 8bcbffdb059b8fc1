# frozen_string_literal: true

require_relative "../loop/event_loop"
require_relative "../masked_lock"

module Heddle
  module Promises
    # Wake-ups for the fibers of one loop, posted from other threads and
    # handed to the loop in batches: the first post since the loop last
    # drained the mailbox asks the loop to drain it (one `deliver`, one wake
    # of a sleeping loop); later posts only join the batch.
    #
    # Why: a resolver thread fulfilling ten promises in a row would otherwise
    # make ten deliveries, each writing the loop's wake-up pipe while it
    # sleeps (see the promises benchmark).
    #
    # After a fork the child's loop drops the pending delivery, so the
    # child's mailbox forgets its batch too ({.after_fork}): a post that
    # joined it would wait for a drain that never comes.
    class LoopMailbox
      KEY = :__heddle_promise_mailbox
      private_constant :KEY

      # @param loop [Heddle::EventLoop] the calling thread's loop
      # @return [LoopMailbox] the loop's mailbox, made on first use
      def self.for(loop)
        thread = loop.thread
        thread.thread_variable_get(KEY) || thread.thread_variable_set(KEY, new(loop))
      end

      # In a forked child (EventLoop.on_fork): the forking thread's mailbox
      # forgets the parent's batch, whose delivery the child's loop dropped.
      # @return [void]
      def self.after_fork
        Thread.current.thread_variable_get(KEY)&.__send__(:forget_batch)
      end

      # @param loop [Heddle::EventLoop]
      def initialize(loop)
        @loop = loop
        @lock = MaskedLock.new
        @wakers = []
        @posted = false
      end

      # Queues a waker's wake-up for the loop's thread. Thread-safe.
      # @param waker [FiberWaker]
      # @return [void]
      def post(waker)
        first = @lock.synchronize do
          first = !@posted
          @wakers << waker
          @posted = true
          first
        end
        @loop.deliver(self, :__drain__, nil) if first
      end

      # Runs on the loop's thread: fires every waker posted so far.
      # @api private
      # @return [void]
      private def __drain__(_value)
        wakers = @lock.synchronize do
          wakers = @wakers
          @wakers = []
          @posted = false
          wakers
        end
        wakers.each { |waker| waker.__send__(:__fire__, nil) }
      end

      private

      # The child's only thread runs this: no lock (a parent's thread that
      # held it is gone, and Ruby let it go with that thread).
      def forget_batch
        @wakers = []
        @posted = false
      end

      EventLoop.on_fork { after_fork }
    end
  end
end
