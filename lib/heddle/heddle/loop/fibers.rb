# frozen_string_literal: true

module Heddle
  class EventLoop
    # The proc fibers of a loop: the pool of idle ones, how many exist, and
    # the starts held back while {#max_live_fibers} are alive (past a limit
    # the kernel refuses fiber stacks). Included in {EventLoop}, whose
    # constructor sets the state.
    module Fibers
      # @return [Array] idle pooled fibers (see Heddle::Proc::PooledFiber). Taken
      #   with delete_at(-1), not pop, as the spent calls are: Array#pop shrinks
      #   the buffer of an array that emptied below a third of its capacity,
      #   and the pushes after regrow it, fresh memory every round with GC off
      #   (see the call_methods_waiting benchmark).
      attr_reader :pool
      # @return [Array] starts held back while {#max_live_fibers} fibers live;
      #   while any are, finished workers stay pooled for them (bench spawn)
      attr_reader :held
      # @return [Integer] the maximum of live fibers before starts are held back
      attr_accessor :max_live_fibers
      # @return [Integer] proc fibers alive (running, waiting or idle in the pool)
      attr_reader :fibers

      # @return [Integer] proc fibers running or waiting (not idle in the pool)
      def live
        @fibers - @pool.size
      end

      # Whether a new proc fiber may be created for +entry+; if not, the entry
      # is held back and re-queued when a fiber is free again. Only the slow
      # path (empty pool) gets here.
      # @param entry [#__run__]
      # @return [Boolean]
      def fiber_for?(entry)
        return true if @fibers < @max_live_fibers

        @held << entry
        false
      end

      # Lets go of the idle pooled fibers (the garbage collector frees them),
      # e.g. to give memory back after a burst.
      # @return [Integer] how many were dropped
      def drop_idle_fibers
        count = @pool.size
        @fibers -= count
        @pool.clear
        count
      end

      # Counts a fiber created (+1) or ended (-1).
      # @param delta [Integer]
      # @return [void]
      def count_fiber(delta)
        @fibers += delta
      end

      private

      # Re-queues held-back starts for the idle fibers and the fibers that may
      # still be created.
      def release_held
        free = @pool.size + @max_live_fibers - @fibers
        while free.positive? && !@held.empty?
          @queue << @held.shift
          free -= 1
        end
      end
    end
  end
end
