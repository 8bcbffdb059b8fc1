# frozen_string_literal: true

module Loom
  class Proc
    # The evaluation of one run of a concurrent proc: await its result,
    # conclude (cancel) it, keep data on it, wait for its children.
    #
    # Evaluations started while it runs are its children: concluding it
    # cancels the unfinished ones (their ensure blocks run), and
    # {#await_children} waits for them all.
    #
    # @example
    #   evaluation = Loom.concurrently { Loom.wait(1); :late }
    #   evaluation.conclude_to :early
    #   evaluation.await_result # => :early
    class Evaluation < Loom::Evaluation
      # Unwinds a cancelled evaluation's fiber. An Exception, not a
      # StandardError, so that `rescue => e` in user code lets it through.
      class Cancelled < Exception; end # rubocop:disable Lint/InheritException

      CANCEL = Object.new.freeze
      private_constant :CANCEL

      include Store
      include Awaiters

      # @param loop [EventLoop]
      # @param proc [Loom::Proc, nil] the proc to start, by an entry the
      #   caller puts on +loop+'s run queue at once (Proc#call_detached);
      #   nil: the proc is already running
      # @param args [Array, nil]
      def initialize(loop, proc, args) # rubocop:disable Lint/MissingSuper -- hot path, sets all state itself
        @loop = loop
        @proc = proc
        @args = args
        @waiting = false
        @scheduled = false
        @concluded = false
        @queued = proc ? true : false
      end

      # @return [Boolean] whether the evaluation has a result
      def concluded?
        @concluded
      end

      # Waits for the result (returns at once when concluded). Given a block,
      # returns the block's value for the result instead.
      # @param opts [Hash, nil] the options as a Hash, as Concurrently code passes them
      # @param within [Numeric, nil] seconds to wait at most
      # @param timeout_result [Object] returned on timeout (default: raise)
      # @yieldparam result [Object] the result (or the timeout error)
      # @return [Object] the result
      # @raise [Exception] the result, when it is an exception
      # @raise [Loom::Evaluation::TimeoutError] on timeout without timeout_result
      # @example
      #   Loom.concurrently { 1 }.await_result { |result| result + 1 } # => 2
      def await_result(opts = nil, within: nil, timeout_result: TIMEOUT)
        if opts
          within = opts.fetch(:within, within)
          timeout_result = opts.fetch(:timeout_result, timeout_result)
        end
        result = @concluded ? @result : __await_result__(within, timeout_result)
        result = yield result if block_given?
        raise result if result.is_a?(Exception)

        result
      end

      # Concludes the evaluation with +result+. If it is still running
      # elsewhere, its fiber is unwound (ensure blocks run); its unfinished
      # children are cancelled; everyone awaiting it is resumed.
      # @param result [Object]
      # @return [:concluded]
      # @raise [Evaluation::Error] when already concluded
      # @example
      #   Loom.concurrently { Loom.wait(10) }.conclude_to(:cancelled) # => :concluded
      def conclude_to(result)
        unless Thread.current.equal?(@loop.thread)
          @loop.deliver(self, :conclude_to, result)
          return :concluded
        end
        raise self.class::Error, "already concluded\n#{Loom::Evaluation.notice_for(self)}" if @concluded

        @concluded = true
        @result = result
        cancel_fiber
        cancel_children
        __notify__
        :concluded
      end

      # Waits until every child (evaluations started inside this one) is
      # concluded; children's errors are not raised here.
      # @param within [Numeric, nil] seconds to wait at most
      # @return [true]
      # @raise [Loom::Evaluation::TimeoutError] when children still run after +within+
      def await_children(within: nil)
        deadline = within && (@loop.now + within)
        while (child = @children&.each_key&.first)
          left = deadline && [deadline - @loop.now, 0].max
          child.await_result(within: left) { nil }
          raise TimeoutError, "children still running after #{within} second(s)" unless child.concluded?

          @children.delete(child)
        end
        true
      end

      # @return [Array<Proc::Evaluation>] unfinished children
      def children
        @children ? @children.keys : []
      end

      # @return [String]
      def inspect
        state = if @concluded then "concluded"
                elsif @waiting then "waiting"
                elsif @worker then "running"
                else
                  "scheduled"
                end
        "#<#{self.class} #{__id__.to_s(36)} #{state}>"
      end

      # --- protocol with the loop, workers and other evaluations ---

      # Run by the loop: starts the proc, or resumes its fiber.
      # @return [void]
      def __run__
        if (stale = @stale)
          @stale = stale > 1 ? stale - 1 : nil
          return
        end
        @queued = false
        @scheduled = false
        @waiting = false
        if (worker = @worker)
          value = @run_value
          @run_value = nil
          worker.__resume__(value)
        elsif !@concluded
          __start__
        end
      end

      # @return [void]
      def __start__
        loop = @loop
        worker = loop.pool.pop || (loop.fiber_for?(self) && Worker.create(loop)) or return
        proc = @proc
        args = @args
        @proc = @args = nil
        @worker = worker
        worker.__start__(proc, args, self)
      rescue FiberRefusedError => e
        proc&.trigger(:error, e)
        conclude_to(e) unless @concluded
      end

      # Hands the start of this evaluation to a free +worker+ (see
      # EventLoop#chain); resumes of a started one stay with the loop.
      # @return [Boolean] whether the worker took it
      def __chain_into__(worker)
        return false if @worker || @concluded || @stale

        @queued = false
        @scheduled = false
        @worker = worker
        proc = @proc
        args = @args
        @proc = @args = nil
        worker.__take__(proc, args, self)
        true
      end

      # Binds an evaluation created lazily for a running proc to its worker.
      # @return [void]
      def __running_in__(worker)
        @worker = worker
      end

      # Called by the worker when the proc returned, raised or was cancelled.
      # @return [void]
      def __finished__(result)
        @worker = nil
        return if @concluded

        @concluded = true
        @result = result
        # nobody to tell: no call (bench call_methods "call_detached")
        __notify__ if @parent || @awaiter || @awaiters
      end

      # @return [void]
      def __adopt__(child)
        (@children ||= {})[child] = true
        child.__parent__ = self
      end

      # @return [void]
      def __parent__=(parent)
        @parent = parent
      end

      # @return [void]
      def __orphan__(child)
        @children&.delete(child)
      end

      # Waits +seconds+; a zero wait always suspends the proc's fiber, even
      # when nothing else is due (its caller's call_nonblock sees it wait).
      # @return [true]
      def __wait__(seconds)
        return __await__(seconds, true) if seconds.positive?

        # __wait_zero__ and __await__ inlined (bench call_methods_waiting
        # "waiting ..." rows): a zero wait has no timeout to raise.
        raise Cancelled if @cancel_pending

        begin
          @waiting = true
          @timer = @loop.add_zero_wait(self)
          value = Fiber.yield(Worker::SUSPENDED)
          raise Cancelled if CANCEL.equal?(value)

          value
        ensure
          # __settle__ inlined: a zero wait's timer is a token, nothing to cancel
          @waiting = @scheduled = false
          @timer = nil
          __unqueue__ if @queued
        end
      end

      # Suspends the proc's fiber until resumed.
      # @return [Object] the resume value
      def __await__(within, timeout_result)
        raise Cancelled if @cancel_pending

        @waiting = true
        @timer = @loop.add_timer(within, self, timeout_result) if within
        value = Fiber.yield(Worker::SUSPENDED)
        raise Cancelled if CANCEL.equal?(value)
        raise TimeoutError, "evaluation timed out after #{within} second(s)" if TIMEOUT.equal?(value)

        value
      ensure
        __settle__
      end

      private

      def __await_result__(within, timeout_result)
        waiter = Loom::Evaluation.current
        __add_awaiter__(waiter)
        begin
          waiter.__await__(within, timeout_result)
        ensure
          __remove_awaiter__(waiter)
        end
      rescue TimeoutError => e
        e
      end

      # Unwinds the proc's fiber if it is suspended in a wait; if it is up
      # the current call chain, its next wait raises instead.
      def cancel_fiber
        worker = @worker or return __unqueue__
        return if worker.fiber.equal?(Fiber.current)

        if @waiting || @queued
          __unqueue__
          worker.__cancel__(CANCEL)
        else
          @cancel_pending = true
        end
      end

      def cancel_children
        children = @children or return
        children.each_key.to_a.each do |child|
          next if child.concluded?

          child.conclude_to(CancelledError.new("cancelled: its parent evaluation #{__id__.to_s(36)} was concluded"))
        end
      end
    end
  end
end
