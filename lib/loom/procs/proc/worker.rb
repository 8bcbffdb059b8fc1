# frozen_string_literal: true

module Loom
  class Proc
    # Raised when the OS refuses a new fiber (too many live fibers: on this
    # machine vm.max_map_count allows about 30k).
    class FiberRefusedError < Loom::Error; end

    # A pooled fiber that runs concurrent procs one after the other. It is the
    # fiber-local "evaluation context" of its fiber: {Evaluation.current}
    # asks it for the evaluation it is running, created lazily, so a
    # call_nonblock that never waits allocates no evaluation at all.
    #
    # Protocol with whoever resumes the fiber: a resume returns SUSPENDED when
    # the proc waits, a {Failure} when it raised, else the proc's result.
    class Worker
      SUSPENDED = Object.new.freeze
      # The proc raised +error+ (a StandardError, ScriptError or SystemStackError).
      Failure = Struct.new(:error)

      class << self
        # @param loop [EventLoop]
        # @return [Worker] a new, started worker
        # @raise [FiberRefusedError] when the OS refuses the fiber
        def create(loop)
          new(loop)
        rescue FiberError, NoMemoryError, Errno::ENOMEM => e
          raise FiberRefusedError, "cannot create a fiber for a concurrent proc (#{e.class}: #{e.message}); " \
                                   "#{loop.live} are running. Wait for some to finish (or lower " \
                                   "EventLoop#max_live_fibers) before starting more."
        end
      end

      # @return [Fiber]
      attr_reader :fiber

      # @param loop [EventLoop]
      def initialize(loop)
        @loop = loop
        @evaluation = nil
        @fiber = Fiber.new(blocking: false) { work }
        # Resume once now, so that a refused stack shows up here, where the
        # caller gets a clear error, and not in the middle of a start.
        @fiber.resume
      end

      # @return [EventLoop]
      def __loop__
        @loop
      end

      # Runs +proc+ with +args+ in this worker's fiber until it finishes or waits.
      # @param proc [Loom::Proc]
      # @param args [Array]
      # @param evaluation [Proc::Evaluation, nil] nil: created if the proc waits
      # @param parent [#__adopt__, nil] who adopts a lazily created evaluation
      # @return [Object] SUSPENDED, a Failure or the result
      def __start__(proc, args, evaluation, parent)
        @proc = proc
        @args = args
        @evaluation = evaluation
        @parent = parent
        @fiber.resume
      end

      # @return [Proc::Evaluation] the evaluation being run (created on demand)
      def __evaluation__
        @evaluation ||= begin # rubocop:disable Naming/MemoizedInstanceVariableName -- set by __start__ too
          evaluation = @proc.evaluation_class.new(@loop, nil, nil)
          evaluation.__running_in__(self)
          @parent&.__adopt__(evaluation)
          evaluation
        end
      end

      # Children started by a proc run here become children of its evaluation.
      # @return [void]
      def __adopt__(child)
        __evaluation__.__adopt__(child)
      end

      private

      def work
        Thread.current[Evaluation::FIBER_KEY] = self
        Fiber.yield
        event_loop = @loop
        while true # `loop` would cost a block call per proc run
          result = run_job
          event_loop.fiber_finished
          pool = event_loop.pool
          break if pool.size >= EventLoop::POOL_SIZE

          pool << self
          Fiber.yield result
        end
        result
      end

      def run_job
        @loop.live += 1
        proc = @proc
        args = @args
        @args = nil
        begin
          result = proc.__invoke__(*args)
          finish(result)
          result
        rescue Proc::Evaluation::Cancelled
          finish(nil)
          nil
        rescue StandardError, ScriptError, SystemStackError => e
          proc.__report_error__(e)
          finish(e)
          Failure.new(e)
        rescue Exception => e # rubocop:disable Lint/RescueException -- wake awaiters, then let exit/Interrupt through
          finish(e)
          @loop.fiber_finished
          raise
        end
      end

      def finish(result)
        evaluation = @evaluation
        @evaluation = @proc = @parent = nil
        evaluation&.__finished__(result)
      end
    end
  end
end
