# frozen_string_literal: true

require_relative "interruption"

module Heddle
  class Scheduler
    # What +Fiber.schedule+ returns under heddle: the scheduled fiber as code
    # written for Ruby's Fiber::Scheduler interface sees a Fiber (+alive?+,
    # +blocking?+, +raise+, +kill+, +backtrace+, +resume+), with heddle's
    # evaluation one call away ({#evaluation}). heddle's fibers are pooled
    # and outlive the block, so the Fiber itself would stay +alive?+ and its
    # +raise+ could land in a later block: this object answers for the
    # scheduled block's run only.
    #
    # @example
    #   Heddle.run do
    #     reader, = IO.pipe
    #     fiber = Fiber.schedule { reader.read(1) }
    #     fiber.alive?                     # => true (it waits in the loop)
    #     fiber.raise(IOError, "stop")     # interrupts the read, as Fiber#raise does
    #     fiber.evaluation.await_result { |error| error.class } # => IOError
    #   end
    class ScheduledFiber
      # @return [Proc::Evaluation] heddle's evaluation of the scheduled block
      attr_reader :evaluation

      # @param evaluation [Proc::Evaluation]
      # @param fiber [Fiber] the pooled fiber running the block
      def initialize(evaluation, fiber)
        @evaluation = evaluation
        @fiber = fiber
        @loop = evaluation.__send__(:__loop__)
      end

      # @return [Boolean] true until the block has finished (or was cancelled)
      def alive?
        !@evaluation.concluded?
      end

      # @return [false] scheduled fibers are non-blocking, as Ruby requires
      def blocking?
        false
      end

      # Raises an exception in the fiber where it waits (a sleep, a read, a
      # Mutex#lock: that wait's ensure blocks run and it leaves no trace), as
      # Fiber#raise does; takes Kernel#raise's arguments. From the fiber
      # itself it raises at once. From elsewhere the raise is queued on the
      # loop and runs before the fiber is resumed for anything else, when
      # the caller next waits (Fiber#raise would switch at once: see
      # docs/scheduler.md, "Differences from async").
      # @param args [Array] nothing, a message, an exception class or object
      #   with an optional message and backtrace
      # @return [nil]
      # @raise [FiberError] when the fiber is dead
      # @raise [TypeError] when +args+ name no exception
      def raise(*args)
        error = Interruption.exception_from(args)
        Kernel.raise FiberError, "dead fiber called (#{inspect})" unless alive?
        Kernel.raise error if @fiber.equal?(Fiber.current)

        Interruption.new(@evaluation, @fiber, error).deliver(@loop)
        nil
      end

      # Ends the fiber: its evaluation is concluded to nil and the block is
      # unwound where it waits (ensure blocks run), as Fiber#kill does.
      # @return [self]
      def kill
        @evaluation.conclude_to(nil) if alive?
        self
      end

      # @param args [Array] Fiber#backtrace's (start, length or range)
      # @return [Array<String>, nil] where the fiber is, nil once dead
      def backtrace(*args)
        alive? ? @fiber.backtrace(*args) : nil
      end

      # The scheduler resumes its fibers: as for a fiber another scheduler
      # parked, resuming it by hand raises.
      # @raise [FiberError]
      def resume(*)
        Kernel.raise FiberError, alive? ? "attempt to resume a fiber its scheduler runs" : "dead fiber called"
      end
      alias transfer resume

      # Shorthand for +evaluation.await_result+ (heddle's waits, not Fiber's).
      # @return [Object] the block's result
      def await_result(...)
        @evaluation.await_result(...)
      end

      # @return [String]
      def inspect
        "#<#{self.class} #{alive? ? 'alive' : 'dead'} #{@evaluation.inspect}>"
      end
      alias to_s inspect
    end
  end
end
