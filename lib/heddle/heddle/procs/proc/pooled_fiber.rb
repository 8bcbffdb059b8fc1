# frozen_string_literal: true

require_relative "../../error"
require_relative "../../masks"
require_relative "../../loop/yjit_warm_up"

module Heddle
  class Proc
    # Raised when the OS refuses a new fiber (too many live fibers: the
    # kernel's vm.max_map_count bounds them).
    class FiberRefusedError < Heddle::Error; end

    # A pooled fiber that runs concurrent procs one after the other. It is the
    # fiber-local "evaluation context" of its fiber: `Evaluation.current`
    # asks it for the evaluation it is running, created lazily, so a
    # call_nonblock that never waits allocates no evaluation at all.
    #
    # Protocol with whoever resumes the fiber: a resume returns SUSPENDED when
    # the proc waits, a {Failure} when it raised, else the proc's result.
    #
    # The code here is the hot path of every call method (bench suites
    # call_methods and call_methods_waiting): it avoids method calls where
    # an instance variable will do.
    #
    # Internal to heddle (users never get hold of one), so its messages have
    # plain public names, called without a send.
    # @api private
    class PooledFiber
      # What a resume returns instead of a result: one class test tells the
      # common case (a result) from both signals (hot path, see the
      # call_methods benchmark).
      class Signal; end # rubocop:disable Lint/EmptyClass -- a marker class, tested with ===
      SUSPENDED = Signal.new.freeze
      # {#work} is each pooled fiber's body, entered once per fiber: warmed
      # up so that YJIT compiles it (see the call_methods benchmark).
      WARM_UP = YJITWarmUp.new { allocate.__send__(:work, true) }
      # Jobs a pooled fiber runs per entry of {#run_jobs}. Under YJIT a side
      # exit (an interrupt check that finds one pending: a signal, another
      # thread, a GC job) hands the rest of that frame to the interpreter,
      # and a frame never left stays there: a fiber's loop would run every
      # later job interpreted (docs/journal/core.md, "Ruby 3.4 under YJIT").
      # Leaving the loop now and then bounds that to this many jobs.
      JOBS_PER_ENTRY = 1_000
      # What {#run_jobs} returns when it ran its share and holds a next job.
      AGAIN = Object.new.freeze
      # What {#run_jobs} returns when the loop ended it while idle ({#retire}).
      RETIRED = Object.new.freeze
      # The value of +@chain+ while its job was taken in place ({#take_job}): truthy, so the
      # fiber chains on, and not true, so {#ended} knows whose job it is.
      CHAINED = :chained
      # The proc raised +error+ (a StandardError, ScriptError, SystemStackError or
      # SecurityError: what Concurrently concludes an evaluation to, too).
      class Failure < Signal
        # @return [Exception]
        attr_reader :error

        # @param error [Exception]
        def initialize(error)
          super()
          @error = error
        end
      end

      @fiber_class = ::Fiber

      class << self
        # @return [Class] the class of the fibers made from now on: ::Fiber,
        #   or a subclass (heddle/concurrently's Concurrently::Proc::Fiber,
        #   which code written for Concurrently tests fibers with)
        attr_reader :fiber_class

        # @param klass [Class] ::Fiber or a subclass of it
        # @raise [TypeError] for anything else
        def fiber_class=(klass)
          unless klass.is_a?(Class) && klass <= ::Fiber
            raise TypeError, "fiber_class must be ::Fiber or a subclass of it, got #{klass.inspect}"
          end

          @fiber_class = klass
        end

        # The slow path of a start the loop runs, when its pool is empty: a
        # new fiber into the pool (the start takes it from there, with no
        # branch or return between the take and the resume, where Ruby lands
        # an interrupt), unless EventLoop#max_live_fibers are alive, in which
        # case +entry+ is held back. Interrupts wait until the fiber is
        # pooled: one landing as create returned lost a counted fiber.
        # @param loop [EventLoop]
        # @param entry [#__run__] the start, held back if no fiber may be made
        # @return [Boolean] false when +entry+ was held back
        # @raise [FiberRefusedError] when the OS refuses the fiber
        def provide(loop, entry)
          Thread.handle_interrupt(Masks::UNINTERRUPTED) do
            next false unless loop.fiber_for?(entry)

            loop.pool << create(loop)
            true
          end
        end

        # @param loop [EventLoop]
        # @return [PooledFiber] a new, started pooled fiber
        # @raise [FiberRefusedError] when the OS refuses the fiber
        def create(loop)
          WARM_UP.warm if YJITWarmUp.main_ractor?
          pooled = new(loop)
          loop.count_fiber(1)
          pooled
        rescue FiberError, NoMemoryError, Errno::ENOMEM => e
          raise FiberRefusedError, "cannot create a fiber for a concurrent proc (#{e.class}: #{e.message}); " \
                                   "#{loop.fibers} exist. Wait for some to finish (or lower " \
                                   "EventLoop#max_live_fibers) before starting more."
        end
      end

      # @return [Fiber]
      attr_reader :fiber
      # @return [Proc::Evaluation, nil] the evaluation of the run, once made (a
      #   reader, no Ruby frame: a suspended call/call_nonblock always has one)
      attr_reader :evaluation
      # @return [EventLoop::Timer, nil] the timer of the current wait of its evaluation
      attr_accessor :wait_timer
      # @return [Object] what the evaluation's next resume returns (true unless set)
      attr_accessor :resume_value

      # @return [Heddle::Proc, nil] the proc it runs now; nil while idle (read by Heddle.dump)
      def running_proc = @proc

      # @param loop [EventLoop]
      def initialize(loop)
        @loop = loop
        @pool = loop.pool
        @evaluation = nil
        @wait_timer = nil
        @resume_value = true
        @fiber = PooledFiber.fiber_class.new(blocking: false) { work(false) }
        # Resume once now, so that a refused stack shows up here, where the
        # caller gets a clear error, and not in the middle of a start.
        @fiber.resume
      end

      # @return [EventLoop] the loop of the fiber's thread. Public (see
      #   Protocol::PUBLIC): every proc's call asks for it. A method, not an
      #   attribute reader: YJIT compiles a __send__ to a method, but calls out
      #   of the JIT for a __send__ to a reader (bench call_methods).
      def __loop__ = @loop

      # Runs +proc+ with +args+ in this pooled fiber until it finishes or
      # waits, for the loop: when done, the pooled fiber may start the round's next
      # start itself (EventLoop#chain).
      # @param proc [Heddle::Proc]
      # @param args [Array]
      # @param evaluation [Proc::Evaluation, nil] nil: created if the proc waits
      # @return [Object] SUSPENDED, a Failure or the result
      def start_job(proc, args, evaluation)
        @proc = proc
        @args = args
        @evaluation = evaluation
        @chain = true
        @fiber.resume
      end

      # {#start_job} for Proc#call and #call_nonblock: a start outside the
      # loop's round, which never chains (the evaluation is made lazily).
      # @param proc [Heddle::Proc]
      # @param args [Array]
      # @param parent [#__adopt__] who adopts the evaluation if one is made
      # @return [Object] SUSPENDED, a Failure or the result
      def call_job(proc, args, parent)
        @proc = proc
        @args = args
        @parent = parent
        @chain = false
        @fiber.resume
      end

      # Resumes the waiting proc with the value its evaluation's resume left
      # (see Proc::Evaluation#schedule), for the loop (it may chain).
      # @return [Object] SUSPENDED, a Failure or the result
      def resume_kept
        value = @resume_value
        @resume_value = true
        @chain = true
        @fiber.resume(value)
      end

      # Resumes the waiting proc with +value+ (the cancel signal) from
      # outside the loop's round: when done it must not chain. The wait's
      # timer and any resume value kept for it go. The unwinding runs as the
      # cancelled evaluation, already concluded to its result (as in
      # Concurrently, its ensure blocks see it as Evaluation.current); their
      # waits are its waits, and nobody awaits them.
      # @return [Object] SUSPENDED, a Failure or the result
      def cancel_job(value)
        drop_wait_timer
        @resume_value = true
        @chain = false
        @fiber.resume(value)
      end

      # Cancels the timer of the current wait, if it has one (the wait was
      # resumed, cancelled or left by an exception).
      # @return [void]
      def drop_wait_timer
        timer = @wait_timer or return
        @wait_timer = nil
        @loop.cancel_timer(timer)
      end

      # Ends this idle fiber: its body returns, so its stack goes back to
      # Ruby at once and the fiber is cheap to mark until it is freed.
      # Called by the loop on a fiber it took out of its pool and counted
      # out already.
      # @return [void]
      def retire
        @proc = @chain = nil # nil: counted out (see #ended)
        @fiber.resume
      end

      # An interrupt left the start of a job given by {#start_job}: if the
      # job (+proc+, +args+, +evaluation+) had not begun, this fiber lets go
      # of it and goes back to the pool, or is counted out if the interrupt
      # ended it as it switched in (the caller queues the start again).
      # @param proc [Heddle::Proc]
      # @param args [Array]
      # @param evaluation [Proc::Evaluation, nil]
      # @return [Boolean] whether the job had not begun
      def give_back(proc, args, evaluation)
        return false unless @args.equal?(args) && @proc.equal?(proc) && @evaluation.equal?(evaluation)

        @proc = @args = @evaluation = nil
        @pool << self if @fiber.alive? # a dead one counted itself out (#ended)
        true
      end

      # Takes the next job while running in its fiber (EventLoop#chain).
      # @return [void]
      def take_job(proc, args, evaluation)
        @proc = proc
        @args = args
        @evaluation = evaluation
        @chain = CHAINED
      end

      # @return [Proc::Evaluation] the evaluation being run (created on demand)
      private def __evaluation__
        @evaluation ||= begin # rubocop:disable Naming/MemoizedInstanceVariableName -- set by start_job too
          evaluation = @proc.evaluation_class.new(@loop, nil, nil, self)
          @parent&.__send__(:__adopt__, evaluation)
          evaluation
        end
      end

      # Waits +seconds+ in the proc running here. A call_and_forget run
      # (no evaluation yet, no caller to hand one to) waits 0 on this pooled fiber
      # alone: no evaluation is made, nobody could see it. Every other wait
      # is its evaluation's.
      # @param seconds [Numeric]
      # @return [true]
      private def __wait__(seconds)
        if (evaluation = @evaluation) || @parent || seconds.positive?
          return (evaluation || __evaluation__).__send__(:__wait__, seconds) # no extra call for an evaluation's run
        end

        @loop.add_zero_wait(self)
        ::Fiber.yield(SUSPENDED)
      end

      # The zero wait of {#__wait__} is due: queue the resume.
      # @return [void]
      private def __zero__(_token)
        @loop.queue << self
      end

      # Run by the loop after {#__zero__}: resumes the zero wait.
      # @return [Object] SUSPENDED, a Failure or the result
      private def __run__
        @chain = true
        @fiber.resume(true)
      end

      # A resume is never run by another pooled fiber (see EventLoop#chain).
      # @return [false]
      private def __chain_into__(_worker)
        false
      end

      # Children started by a proc run here become children of its evaluation.
      # @return [void]
      private def __adopt__(child)
        __evaluation__.__send__(:__adopt__, child)
      end

      private

      # The fiber's body: runs jobs {JOBS_PER_ENTRY} at a time in {#run_jobs},
      # so that the loop that runs them is entered afresh now and then (a
      # side exit leaves the rest of a frame to the interpreter: see
      # JOBS_PER_ENTRY).
      def work(warming)
        return if warming # see WARM_UP

        Thread.current[Evaluation::FIBER_KEY] = self
        ::Fiber.yield
        nil while AGAIN == (result = run_jobs(JOBS_PER_ENTRY))
        return if RETIRED == result # counted out by the loop already

        @chain = nil # counted out (see #ended)
        @loop.count_fiber(-1)
        result
      rescue Exception # rubocop:disable Lint/RescueException -- a job's, or an interrupt between jobs; re-raised
        Thread.handle_interrupt(Masks::UNINTERRUPTED) { ended }
        raise
      end

      # An exception ends the fiber: it is counted out, once, and a start it
      # took in place and had not begun is queued again. One that was given
      # it ({#start_job}) is queued again by the giver ({#give_back}).
      def ended
        chain = @chain
        return if chain.nil? # counted out already

        @chain = nil
        @pool.delete(self) # an interrupt as it went back to the pool
        @loop.count_fiber(-1)
        restart_taken if CHAINED.equal?(chain) && @args
      end

      # Queues again the start taken in place: the evaluation, the bare proc
      # (no arguments) or a call with its arguments. The loop's head is past
      # its entry (EventLoop#chain).
      def restart_taken
        proc = @proc
        args = @args
        evaluation = @evaluation
        @proc = @args = @evaluation = nil
        if evaluation
          evaluation.__send__(:__unchain__, proc, args)
        else
          @loop.queue << (args.equal?(Arguments::EMPTY) ? proc : QueuedCall.for(@loop, proc, args))
        end
      end

      # Runs the job given, then each job given after a Fiber.yield, until
      # +left+ jobs have yielded (returns AGAIN, the next job given) or the
      # fiber leaves the pool (returns the last result).
      # rubocop:disable-next Metrics/MethodLength, Metrics/CyclomaticComplexity, Metrics/PerceivedComplexity -- one frame less per proc run
      def run_jobs(left)
        pool = @pool
        while true # `loop` would cost a block call per proc run
          begin
            args = @args
            @args = nil # the job has begun (see #give_back)
            result = @proc.__invoke__(*args)
            @evaluation&.__send__(:__finished__, result)
          rescue Proc::Evaluation::Cancelled
            @evaluation&.__send__(:__finished__, nil)
            result = nil
          rescue StandardError, ScriptError, SystemStackError, SecurityError => e
            result = failed(e)
          rescue Exception => e # rubocop:disable Lint/RescueException -- wake awaiters, let exit/Interrupt through
            died(e)
          end
          @evaluation = @proc = @parent = nil
          next if @chain && @loop.chain(self)
          break if pool.size >= EventLoop::POOL_SIZE && @loop.held.empty?

          pool << self
          ::Fiber.yield result
          return RETIRED unless @proc
          return AGAIN if (left -= 1).zero?
        end
        result
      end

      def failed(error)
        @proc.trigger(:error, error)
        @evaluation&.__send__(:__finished__, error)
        Failure.new(error)
      end

      def died(error)
        @evaluation&.__send__(:__finished__, error)
        raise error # counted out in #work
      end
    end
  end
end
