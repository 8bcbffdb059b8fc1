# frozen_string_literal: true

require_relative "../evaluation"

module Heddle
  class Proc
    # Heddle::Proc::Evaluation, the evaluation of one run of a concurrent
    # proc; a fiber outside any concurrent proc has a root evaluation, its
    # superclass {Heddle::Evaluation}. Await its result, conclude (cancel)
    # it, keep data on it, wait for its children.
    #
    # Evaluations started while it runs are its children: concluding it
    # cancels the unfinished ones (their ensure blocks run), and
    # {#await_children} waits for them all.
    #
    # Its awaiters (await_result, Proc#call, await_fastest) are woken when it
    # concludes. An evaluation pending in a process that forked never runs in
    # the child (its loop starts empty, EventLoop.after_fork): awaiting the
    # child's copy raises at once instead of waiting for ever.
    #
    # Everything rare (arguments of a pending start, further awaiters, parent
    # and children, stored data, the pid it was forked from) is kept in an
    # {EvaluationExtras} made on first use.
    #
    # @example
    #   evaluation = Heddle.concurrently { Heddle.wait(1); :late }
    #   evaluation.conclude_to :early
    #   evaluation.await_result # => :early
    class Evaluation < Heddle::Evaluation
      # Unwinds a cancelled evaluation's fiber. An Exception, not a
      # StandardError, so that `rescue => e` in user code lets it through.
      class Cancelled < Exception; end # rubocop:disable Lint/InheritException

      CANCEL = Object.new.freeze
      private_constant :CANCEL

      # What #inspect calls a phase (RUNNING and SCHEDULED: "running").
      INSPECT_NAMES = { PENDING => "scheduled", ZERO_WAIT => "waiting", WAITING => "waiting" }.freeze
      private_constant :INSPECT_NAMES

      # Arguments of a start that has none (no array kept per evaluation).
      NO_ARGS = [].freeze
      private_constant :NO_ARGS

      # @param loop [EventLoop]
      # @param proc [Heddle::Proc, nil] the proc to start, by an entry the
      #   caller puts on +loop+'s run queue at once (Proc#call_detached);
      #   nil: the proc is already running
      # @param args [Array, nil]
      # @param pooled [PooledFiber, nil] the pooled fiber a running proc runs in (the
      #   evaluation of a call or call_nonblock is made when its proc first
      #   waits: one call less than binding it after)
      def initialize(loop, proc, args, pooled = nil) # rubocop:disable Lint/MissingSuper -- hot path, sets all state itself
        # @slot holds the proc while PENDING, its PooledFiber while it runs (the
        # pooled fiber keeps the state of each wait: timer, resume value), the
        # result once CONCLUDED. Everything rarer is in @extras.
        @loop = loop
        if proc
          @state = PENDING
          @slot = proc
          (@extras = EvaluationExtras.new).args = args unless args.nil? || args.empty?
        else
          @state = RUNNING
          @slot = pooled
        end
      end

      # @return [Boolean] whether the evaluation has a result
      def concluded?
        @state == CONCLUDED || (@extras&.concluded || false)
      end

      # Waits for the result (returns at once when concluded). Given a block,
      # returns the block's value for the result instead.
      # @param opts [Hash, nil] the options as a Hash, as Concurrently code passes them
      # @param within [Numeric, nil] seconds to wait at most
      # @param timeout_result [Object] returned on timeout (default: raise)
      # @yieldparam result [Object] the result (or the timeout error)
      # @return [Object] the result
      # @raise [Exception] the result, when it is an exception
      # @raise [Heddle::Evaluation::TimeoutError] on timeout without timeout_result
      # @raise [TypeError, ArgumentError] for options that are not a Hash of
      #   within:/timeout_result:, or a within: that is not a number of seconds
      # @example
      #   Heddle.concurrently { 1 }.await_result { |result| result + 1 } # => 2
      def await_result(opts = nil, within: nil, timeout_result: TIMEOUT)
        if opts
          opts = Waits.options!(opts)
          within = opts.fetch(:within, within)
          timeout_result = opts.fetch(:timeout_result, timeout_result)
        end
        within = Waits.within!(within) if within
        # concluded: read inline (most awaits of a batch find it so; call_methods_waiting benchmark)
        result = @state == CONCLUDED ? @slot : result_or_wait(within, timeout_result)
        result = yield result if block_given?
        raise result if result.is_a?(Exception)

        result
      end

      # Concludes the evaluation with +result+. If it is still running
      # elsewhere, its fiber is unwound (ensure blocks run); its unfinished
      # children are cancelled; everyone awaiting it is resumed. A proc that
      # concludes its own evaluation runs on (as in Concurrently). From
      # another thread the conclusion is handed to the evaluation's loop,
      # which drops it if the evaluation concluded before it arrived.
      # @param result [Object]
      # @return [:concluded]
      # @raise [Evaluation::Error] when already concluded (from the loop's thread)
      # @example
      #   Heddle.concurrently { Heddle.wait(10) }.conclude_to(:cancelled) # => :concluded
      def conclude_to(result)
        unless Thread.current == @loop.thread
          @loop.deliver(self, :conclude_delivered, result)
          return :concluded
        end
        raise self.class::Error, "already concluded\n#{Heddle::Evaluation.notice_for(self)}" if concluded?

        conclude_run(@state, result)
        cancel_children
        notify_awaiters(result)
        :concluded
      end

      # @return [String]
      def inspect
        state = concluded? ? "concluded" : INSPECT_NAMES.fetch(@state, "running")
        "#<#{self.class} #{__id__.to_s(36)} #{state}>"
      end

      # --- data kept on the evaluation (Concurrently's Evaluation#[] and #[]=),
      # in a Hash allocated on first store ---

      # @param key [Object]
      # @return [Object] the value stored under +key+
      def [](key)
        data = @extras&.data
        data && data[key]
      end

      # @param key [Object]
      # @param value [Object]
      # @return [Object] value
      def []=(key, value)
        extras = (@extras ||= EvaluationExtras.new)
        (extras.data ||= {})[key] = value
      end

      # @param key [Object]
      # @return [Boolean]
      def key?(key)
        data = @extras&.data
        data ? data.key?(key) : false
      end

      # @return [Array] the keys stored
      def keys
        data = @extras&.data
        data ? data.keys : []
      end

      # --- its children ---

      # Waits until every child (evaluations started inside this one) is
      # concluded; children's errors are not raised here.
      # @param within [Numeric, nil] seconds to wait at most
      # @return [true]
      # @raise [Heddle::Evaluation::TimeoutError] when children still run after +within+
      # @raise [TypeError, ArgumentError] when +within+ is not a number of seconds
      def await_children(within: nil)
        within = Waits.within!(within) if within
        deadline = within && (@loop.now + within)
        while (child = first_child)
          left = deadline && [deadline - @loop.now, 0].max
          child.await_result(within: left) { nil }
          unless child.concluded?
            raise Heddle::Evaluation::TimeoutError, "children still running after #{within} second(s)"
          end

          __orphan__(child)
        end
        true
      end

      # @return [Array<Proc::Evaluation>] unfinished children
      def children
        children = @extras&.children
        children ? children.keys : []
      end

      # --- protocol with the loop, workers and other evaluations ---

      # Run by the loop: starts the proc, or resumes its fiber.
      # @return [void]
      private def __run__
        # The constants first, at the method's entry: Ruby 3.4.5's YJIT left
        # a constant read further in, compiled before its first run, to the
        # interpreter on every call, with the rest of the loop's round
        # (docs/journal/core.md, "Ruby 3.4 under YJIT").
        scheduled = SCHEDULED
        running = RUNNING
        pending = PENDING
        if (extras = @extras) && (stale = extras.stale)
          extras.stale = stale > 1 ? stale - 1 : nil
          return
        end
        state = @state
        if state == scheduled
          @state = running
          @slot.resume_kept
        elsif state == pending
          __start__
        end
      end

      # An interrupt that lands before the proc began leaves it pending (the
      # loop puts back an entry it took and did not run: EventLoop#put_back).
      # @return [void]
      private def __start__ # rubocop:disable Metrics/CyclomaticComplexity -- one frame per start (spawn benchmark)
        loop = @loop
        return if loop.pool.empty? && !PooledFiber.provide(loop, self)

        args = (extras = @extras)&.args || NO_ARGS # kept in the extras until the job began (see #unstart)
        # No branch or return from the take to the resume: Ruby lands interrupts there.
        pooled = loop.pool.delete_at(-1) # not pop: see EventLoop#pool
        proc = @slot
        @state = RUNNING
        @slot = pooled
        pooled.start_job(proc, args, self)
        extras.args = nil if extras
      rescue FiberRefusedError => e
        @slot.trigger(:error, e)
        conclude_to(e) unless concluded?
      rescue Exception # rubocop:disable Lint/RescueException -- any interrupt; re-raised
        unstart(pooled)
        raise
      end

      # Back to pending if the pooled fiber an interrupt kept from beginning
      # its start let go of it (the loop puts the entry back).
      private def unstart(pooled)
        return unless pooled && (proc = pooled.running_proc) &&
                      pooled.give_back(proc, @extras&.args || NO_ARGS, self)

        @slot = proc
        @state = PENDING
      end

      # @return [Boolean] whether its entry was taken and not run (see
      #   EventLoop#run_until): still scheduled, or still pending its start
      private def __untaken__
        (state = @state) == SCHEDULED || state == PENDING
      end

      # Hands the start of this evaluation to a free +pooled+ (see
      # EventLoop#chain); resumes of a started one stay with the loop.
      # @return [Boolean] whether the pooled fiber took it
      private def __chain_into__(pooled)
        none = NO_ARGS # first: see #__run__
        return false unless @state == PENDING

        # The take first: an interrupt after it has the fiber give it back (see #__unchain__).
        pooled.take_job(@slot, (extras = @extras)&.args || none, self)
        @slot = pooled
        @state = RUNNING
        extras.args = nil if extras
        true
      end

      # The pooled fiber that took this start in place (#__chain_into__) ended
      # before it began (PooledFiber#work): pending again, and queued.
      # @param proc [Heddle::Proc]
      # @param args [Array]
      # @return [void]
      private def __unchain__(proc, args)
        @slot = proc
        @state = PENDING
        @extras.args = args unless args.equal?(NO_ARGS)
        @loop.queue << self
      end

      # Called by the pooled fiber when the proc returned, raised or was cancelled.
      # @return [void]
      private def __finished__(result)
        return if @state == CONCLUDED

        extras = @extras
        if extras&.concluded # concluded itself earlier: its awaiters know
          @slot = extras.result
          @state = CONCLUDED
          return
        end
        @slot = result # before the state: see conclude_to
        @state = CONCLUDED
        # nobody to tell: no call (hot path, see the call_methods benchmark)
        notify_awaiters(result) if @awaiter || extras
      end

      # Waits +seconds+; a zero wait always suspends the proc's fiber, even
      # when nothing else is due (its caller's call_nonblock sees it wait).
      # @return [true]
      private def __wait__(seconds)
        return __await__(seconds, true) if seconds.positive?

        # wait_zero and __await__ inlined (hot path, see the
        # call_methods_waiting benchmark): a zero wait has no timeout to raise.
        cancelled! if @extras&.cancel_pending

        begin
          @state = ZERO_WAIT
          @loop.add_zero_wait(self)
          value = ::Fiber.yield(PooledFiber::SUSPENDED)
          raise Cancelled if CANCEL == value

          value
        ensure
          settle unless @state == RUNNING # resumed by its run: nothing to settle
        end
      end

      # Suspends the proc's fiber until resumed.
      # @return [Object] the resume value
      private def __await__(within, timeout_result)
        cancelled! if @extras&.cancel_pending

        @state = WAITING
        @slot.wait_timer = @loop.add_timer(within, self, timeout_result) if within
        value = ::Fiber.yield(PooledFiber::SUSPENDED)
        raise Cancelled if CANCEL == value
        if TIMEOUT == value
          raise Heddle::Evaluation::TimeoutError,
                "evaluation timed out after #{within} second(s)"
        end

        value
      ensure
        settle unless @state == RUNNING
      end

      # The loop's zero-second wait is due (see Heddle::Evaluation#__zero__);
      # the pooled fiber's resume value is already true.
      # @return [void]
      private def __zero__(_token)
        return unless @state == ZERO_WAIT

        @loop.queue << self
        @state = SCHEDULED
      end

      # @return [void]
      private def __timeout__(timer)
        return unless @state == WAITING && (pooled = @slot).wait_timer.equal?(timer)

        pooled.wait_timer = nil
        schedule(timer.value)
      end

      # Registers +evaluation+ to be woken with +value+ (nil: the result)
      # when this evaluation concludes. The first awaiter of the result gets
      # an ivar of its own, the usual case, so no EvaluationExtras or Hash is
      # allocated for it (hot path, see the call_methods_waiting benchmark).
      # @return [void]
      private def __add_awaiter__(evaluation, value = nil)
        extras = @extras
        if value.nil? && @awaiter.nil? && (extras.nil? || extras.awaiters.nil?)
          @awaiter = evaluation
        else
          extras ||= (@extras = EvaluationExtras.new)
          (extras.awaiters ||= {})[evaluation] = value
        end
      end

      # @return [void]
      private def __remove_awaiter__(evaluation)
        if @awaiter.equal?(evaluation)
          @awaiter = nil
        else
          @extras&.awaiters&.delete(evaluation)
        end
      end

      # Proc#call's wait for the evaluation its call returned: like
      # {#await_result} for +waiter+, the caller's evaluation, minus the
      # options (hot path, see the call_methods_waiting benchmark).
      # @param waiter [Heddle::Evaluation]
      # @return [Object] the result
      # @raise [Exception] the result, when it is an exception
      private def __await_call__(waiter)
        unless concluded?
          __add_awaiter__(waiter)
          begin
            waiter.__send__(:__await__, nil, nil)
          ensure
            __remove_awaiter__(waiter)
          end
        end
        result = concluded_result
        raise result if result.is_a?(Exception)

        result
      end

      # @return [void]
      private def __adopt__(child)
        ((@extras ||= EvaluationExtras.new).children ||= {})[child] = true
        child.__send__(:__parent__=, self)
      end

      # @return [void]
      private def __parent__=(parent)
        (@extras ||= EvaluationExtras.new).parent = parent
      end

      # @return [void]
      private def __orphan__(child)
        @extras&.children&.delete(child)
      end

      # Told by a forked child's loop that this evaluation was pending in
      # the parent and will never run here (EventLoop#orphan_pending).
      # @param parent [Integer] the parent's pid
      # @return [void]
      private def __forked__(parent)
        (@extras ||= EvaluationExtras.new).forked_from ||= parent unless concluded?
      end

      # @return [Integer, nil] the pid of the process it was pending in when
      #   this one forked, if it was: it never concludes here
      private def __forked_from__ = @extras&.forked_from

      # @return [Heddle::Evaluation::LoopGoneError] what awaiting an
      #   evaluation inherited across a fork raises
      private def __forked_error__
        Heddle::Evaluation::LoopGoneError.new(
          "#{inspect} will never conclude in this process (#{Process.pid}): it was pending in process " \
          "#{__forked_from__} when that process forked, and a forked child never runs its parent's pending work; " \
          "await it in the process that started it, or start it after the fork"
        )
      end

      private

      # A conclusion sent from another thread, run by the loop: the sender
      # was answered already and the race with the evaluation's own end is
      # expected, so a late one is dropped rather than raised into the loop.
      def conclude_delivered(result) = concluded? || conclude_to(result)

      # Queues the resume of the waiting evaluation; +value+ is kept by its
      # pooled fiber, with the wait's timer. Pushed before the phase is set
      # and the timer dropped after, as in Heddle::Evaluation#schedule.
      # @param value [Object] what the wait returns
      # @return [void]
      def schedule(value)
        pooled = @slot
        pooled.resume_value = value
        @loop.queue << self
        @state = SCHEDULED
        pooled.drop_wait_timer
      end

      # The result of an evaluation concluded by its own, still running,
      # fiber; else the wait for it.
      def result_or_wait(within, timeout_result)
        @extras&.concluded ? @extras.result : wait_for_result(within, timeout_result)
      end

      def wait_for_result(within, timeout_result)
        return __forked_error__ if __forked_from__ # its loop was emptied by a fork: nothing runs it here

        # Awaiters change only on the evaluation's own thread: another
        # thread waits through a promise (Promises::EvaluationPromise).
        return __await_elsewhere__(within, timeout_result) unless Thread.current == @loop.thread

        waiter = Heddle::Evaluation.current
        __add_awaiter__(waiter)
        begin
          waiter.__send__(:__await__, within, timeout_result)
        ensure
          __remove_awaiter__(waiter)
        end
      rescue Heddle::Evaluation::TimeoutError => e
        e
      end

      # The result of a concluded evaluation.
      def concluded_result
        @state == CONCLUDED ? @slot : @extras.result
      end

      # Leaves the waiting state, whatever ended the wait other than its run
      # (an exception raised into the fiber): a queued resume goes stale.
      # The phase first, the timer after (see Heddle::Evaluation#settle);
      # nothing after the first change calls Ruby code or branches, where an
      # interrupt lands, until the timer.
      def settle
        state = @state
        return if state <= CONCLUDED # RUNNING or CONCLUDED: not in a wait

        pooled = @slot
        if state == SCHEDULED
          extras = (@extras ||= EvaluationExtras.new)
          extras.stale = extras.stale.to_i + 1
          pooled.resume_value = true
        end
        @state = RUNNING
        pooled.drop_wait_timer
      end

      # Records the conclusion to +result+ of an evaluation in +state+. The
      # result is written before the flag that says it is there: a thread
      # reading concluded? then the result needs no lock (see
      # Promises::EvaluationAwaiter).
      def conclude_run(state, result)
        if state == PENDING # its queued start finds it concluded
          @slot = result
          @state = CONCLUDED
          @extras&.args = nil
          return
        end
        # Its fiber runs on as this evaluation, concluded (itself, or its
        # ensure blocks while cancel_run unwinds it), as in Concurrently:
        # they see it as Evaluation.current; #__finished__ settles it.
        extras = (@extras ||= EvaluationExtras.new)
        extras.result = result
        extras.concluded = true
        pooled = @slot
        cancel_run(state, pooled) unless state == RUNNING && pooled.fiber == ::Fiber.current
      end

      # Ends the run of an evaluation just concluded from +state+ by another
      # fiber: its fiber, if suspended, is unwound now (ensure blocks run; a
      # queued resume goes stale); if the fiber is up the current call
      # chain, its next wait raises instead.
      def cancel_run(state, pooled)
        return (@extras ||= EvaluationExtras.new).cancel_pending = true if state == RUNNING

        pooled.cancel_job(CANCEL)
      end

      # Raises Cancelled into the next wait of an evaluation concluded while
      # up the call chain, once: waits in its ensure blocks then wait.
      def cancelled!
        @extras.cancel_pending = nil
        raise Cancelled
      end

      def notify_awaiters(result)
        if (waiter = @awaiter)
          @awaiter = nil
          waiter.__send__(:__wake__, result)
        end
        extras = @extras or return
        extras.parent&.__send__(:__orphan__, self)
        awaiters = extras.awaiters or return
        extras.awaiters = nil
        awaiters.each { |other, value| other.__send__(:__wake__, value || result) }
      end

      # The oldest unfinished child, without listing them all (a parent may
      # have thousands).
      def first_child
        children = @extras&.children or return
        children.each_key.first
      end

      def cancel_children
        children = @extras&.children or return
        children.each_key.to_a.each do |child|
          next if child.concluded?

          message = "cancelled: its parent evaluation #{__id__.to_s(36)} was concluded"
          child.conclude_to(Heddle::Evaluation::CancelledError.new(message))
        end
      end
    end
  end
end
