# frozen_string_literal: true

module Loom
  class Proc
    # A run-queue entry for {Proc#call_and_forget}: a proc and its arguments,
    # started in a pooled fiber when the loop reaches it.
    class Job
      # @param loop [EventLoop]
      # @param proc [Loom::Proc]
      # @param args [Array]
      def initialize(loop, proc, args)
        @loop = loop
        @proc = proc
        @args = args
      end

      # A free worker that finished its job runs this one next, in place.
      # @return [true]
      def __chain_into__(worker)
        worker.__take__(@proc, @args, nil)
        true
      end

      # Starts the proc (or holds it back while too many fibers are live).
      # @return [void]
      def __run__
        loop = @loop
        worker = loop.pool.pop || (loop.fiber_for?(self) && Worker.create(loop)) or return
        worker.__start__(@proc, @args, nil, nil, true)
      rescue FiberRefusedError => e
        @proc.trigger(:error, e)
      end
    end
  end
end
