# frozen_string_literal: true

module Heddle
  class Scheduler
    # A {ScheduledFiber#raise} on its way: a run-queue entry that raises the
    # error in the scheduled fiber where it waits, from the loop, as
    # {Deadline} does. Queued rather than raised at once because the caller
    # is not the fiber's resumer (the loop is), and the loop must see the
    # fiber suspend again.
    class Interruption
      # Kernel#raise's arguments as the exception they raise.
      # @param args [Array]
      # @return [Exception]
      # @raise [TypeError] when they name no exception
      # @raise [ArgumentError] for more than three arguments
      def self.exception_from(args)
        raise ArgumentError, "raise takes 0..3 arguments, got #{args.size}: #{args.inspect}" if args.size > 3
        return RuntimeError.new("unhandled exception") if args.empty?
        return RuntimeError.new(args.first) if args.size == 1 && args.first.is_a?(String)

        error = exception_of(args)
        error.set_backtrace(args[2]) if args.size == 3
        error
      end

      def self.exception_of(args)
        kind = args.first
        raise TypeError, "exception class/object expected, got #{kind.inspect}" unless kind.respond_to?(:exception)

        error = args.size > 1 ? kind.exception(args[1]) : kind.exception
        raise TypeError, "exception object expected, got #{error.inspect}" unless error.is_a?(Exception)

        error
      end
      private_class_method :exception_of

      # @param evaluation [Proc::Evaluation] the scheduled block's run
      # @param fiber [Fiber] the pooled fiber running it
      # @param error [Exception]
      def initialize(evaluation, fiber, error)
        @evaluation = evaluation
        @fiber = fiber
        @error = error
      end

      # Queues the raise on +loop+, from any thread.
      # @param loop [EventLoop]
      # @return [void]
      def deliver(loop)
        @loop = loop
        if Thread.current.equal?(loop.thread)
          loop.push(self)
        else
          loop.deliver(loop, :push, self)
        end
      end

      # Run by the loop: raises in the fiber if it waits; if it is about to
      # be resumed (a resume queued before this entry ran), tries again next
      # round, so the error is not lost; a finished fiber drops it.
      # @return [Object] what the fiber's next suspension hands the loop
      private def __run__
        return if @evaluation.concluded?
        return @fiber.raise(@error) if @evaluation.waiting?

        @loop.push(self)
        nil
      end

      # Never run by a proc fiber (see EventLoop#chain).
      # @return [false]
      private def __chain_into__(_worker)
        false
      end
    end
  end
end
