# frozen_string_literal: true

require_relative "../error"
require_relative "../loop"

module Heddle
  # Heddle::Evaluation, the base of every evaluation and the root evaluation
  # of any fiber; a concurrent proc's run is its subclass {Proc::Evaluation}.
  #
  # The state of one flow of control that can wait: a concurrent proc's run
  # ({Proc::Evaluation}) or a fiber outside any concurrent proc (a "root"
  # evaluation, e.g. the main fiber of a thread). A root evaluation that
  # waits runs its thread's {EventLoop} until it is resumed. Both names are
  # Concurrently's (Concurrently::Evaluation, Concurrently::Proc::Evaluation).
  #
  # Methods named +__x__+ are messages of {Protocol} (between evaluations,
  # the loop and the pooled fibers): private, sent with +__send__+.
  class Evaluation
    # Raised on misuse of an evaluation (resuming one that is not waiting, ...).
    class Error < Heddle::Error; end

    # Raised by a wait that gives up after its +within:+ seconds.
    class TimeoutError < Error
      include Heddle::TimeoutError
    end

    # The result of an evaluation cancelled because its parent was concluded.
    class CancelledError < Error; end
    # Raised by a wait from another thread for an evaluation whose own thread
    # ended before concluding it: nothing can run it any more.
    class LoopGoneError < Error; end

    # The fiber-local key holding the fiber's evaluation (or its pooled fiber).
    FIBER_KEY = :__heddle_evaluation__
    # Default +timeout_result+: raise {TimeoutError} instead of returning a value.
    TIMEOUT = Object.new.freeze

    class << self
      # @return [Evaluation] the evaluation of the current fiber (a root
      #   evaluation outside concurrent procs)
      # @example
      #   Heddle.concurrently { Heddle::Evaluation.current }.await_result # => #<Heddle::Proc::Evaluation ...>
      def current
        (Thread.current[FIBER_KEY] || __bind__).__send__(:__evaluation__)
      end

      # Gives the current fiber its root evaluation.
      # @return [Evaluation]
      private def __bind__
        Thread.current[FIBER_KEY] = Evaluation.new(EventLoop.current)
      end

      # The text appended to misuse errors, saying how to investigate.
      # @param evaluation [Evaluation]
      # @return [String]
      def notice_for(evaluation)
        "  Evaluation id: #{evaluation.__id__.to_s(36)}\n  " \
          "Call Heddle::Evaluation#waiting? and #concluded? to check its state first.\n"
      end
    end

    # Phases of +@state+: one Integer instead of a flag per state, so that
    # a Proc::Evaluation gets by with few instance variables. Ruby 3.1 gives
    # every instance an ivar table sized to all the ivars its class ever
    # used, so each ivar less makes every evaluation smaller, and fresh
    # memory is what a GC-off benchmark pays for (see the
    # call_methods_waiting benchmark).
    RUNNING = 0   # running, or a root evaluation that is not waiting
    CONCLUDED = 1 # has its result (Proc::Evaluation); with RUNNING: nothing to settle
    PENDING = 2   # queued to start (a Proc::Evaluation from call_detached)
    ZERO_WAIT = 3 # waiting for the loop's next round (a zero-second wait)
    WAITING = 4   # waiting for a resume, a timer or IO
    SCHEDULED = 5 # resumed; its run-queue entry has not run yet
    RESUMED = 6   # root: its entry ran, the loop in its fiber may return

    # @param loop [EventLoop] the loop of the thread the evaluation belongs to
    def initialize(loop)
      @loop = loop
      @state = RUNNING
    end

    # @return [EventLoop] the loop of the evaluation's thread. Public (see
    #   Protocol::PUBLIC): every proc's call asks for it. A method, not an
    #   attribute reader: YJIT compiles a __send__ to a method, but calls out
    #   of the JIT for a __send__ to a reader (bench call_methods).
    def __loop__ = @loop

    # @return [Evaluation] self (a pooled fiber answers its evaluation)
    private def __evaluation__
      self
    end

    # Root evaluations do not track children (1,000,000 pending evaluations
    # started from the main fiber would all be kept alive by it).
    # @return [void]
    private def __adopt__(_child); end

    # @return [Boolean] true while the evaluation waits to be resumed
    def waiting?
      (state = @state) == WAITING || state == ZERO_WAIT
    end

    # Read from another thread by Scheduler::Watch: whether the fiber is in a
    # heddle wait (or queued to run), so that the thread may be running
    # other fibers, not this one.
    # @return [Boolean]
    private def __suspended__
      @state > CONCLUDED
    end

    # Schedules the waiting evaluation to resume; its wait returns +value+.
    # From another thread the resume is handed to the evaluation's own loop
    # (and applied there if it is still waiting then).
    # @param value [Object] what the wait returns
    # @return [:resumed]
    # @raise [Evaluation::Error] when it is already scheduled or not waiting
    # @example
    #   evaluation = Heddle.concurrently { Heddle.await_resume! }
    #   Heddle.wait 0
    #   evaluation.resume! :go
    #   evaluation.await_result # => :go
    def resume!(value = nil)
      unless Thread.current == @loop.thread
        @loop.deliver(self, :__wake__, value)
        return :resumed
      end
      raise self.class::Error, "already scheduled\n#{Evaluation.notice_for(self)}" if @state == SCHEDULED
      raise self.class::Error, "not waiting\n#{Evaluation.notice_for(self)}" unless waiting?

      schedule(value)
      :resumed
    end

    # Resumes the evaluation if it is waiting, else does nothing; safe from
    # any thread.
    # @param value [Object]
    # @return [void]
    private def __wake__(value)
      if Thread.current == @loop.thread
        schedule(value) if (state = @state) == WAITING || state == ZERO_WAIT
      else
        @loop.deliver(self, :__wake__, value)
      end
    end

    # Run by the loop: marks the root evaluation resumed; the loop running in
    # its fiber then returns from its wait.
    # @return [Evaluation, nil] self, unless the entry was stale
    private def __run__
      if (stale = @stale)
        @stale = stale > 1 ? stale - 1 : nil
        return
      end
      return unless @state == SCHEDULED

      @state = RESUMED
      self
    end

    # @return [Boolean] whether its entry was taken and not run (see
    #   EventLoop#run_until): it is still scheduled
    private def __untaken__
      @state == SCHEDULED
    end

    # A root evaluation's resume is never run by a proc fiber.
    # @return [false]
    private def __chain_into__(_worker)
      false
    end

    # @return [Boolean] whether the root evaluation was resumed
    private def __resumed__
      @state == RESUMED
    end

    # @return [void]
    private def __timeout__(timer)
      return unless @timer.equal?(timer)

      @timer = nil
      schedule(timer.value) if @state == WAITING
    end

    # @return [void]
    private def __io_ready__
      schedule(true) if @state == WAITING
    end

    # Suspends until resumed: here, by running the loop in this fiber.
    # @param within [Numeric, nil] seconds until the wait times out
    # @param timeout_result [Object] returned on timeout ({TIMEOUT}: raise)
    # @return [Object] the resume value
    private def __await__(within, timeout_result)
      @state = WAITING
      @timer = @loop.add_timer(within, self, timeout_result) if within
      @loop.run_until(self)
      value = @run_value
      @run_value = nil
      raise TimeoutError, "evaluation timed out after #{within} second(s)" if TIMEOUT == value

      value
    ensure
      settle
    end

    # Waits +seconds+ (0: lets everything already scheduled run first).
    # @return [true]
    private def __wait__(seconds)
      return __await__(seconds, true) if seconds.positive?
      # Outside a concurrent proc, with nothing runnable or due, the round
      # would run this wait alone: skip it (hot path, see the wait_methods
      # benchmark). A proc's wait 0 always suspends (call_nonblock returns
      # its evaluation), see Proc::Evaluation#__wait__.
      return true if @loop.nothing_due?

      wait_zero
    end

    # The loop's zero-second wait is due: queue the resume. No token check:
    # the phase tells whether the wait still stands, since every zero wait
    # registered in a round is due at the start of the next, before any run
    # that could have ended this wait and started another.
    # @return [void]
    private def __zero__(_token)
      return unless @state == ZERO_WAIT

      # schedule(true) inlined (hot path of the wait_methods benchmark): no timer
      @run_value = true
      @loop.queue << self
      @state = SCHEDULED
    end

    private

    # Suspends until the next round (a zero-second wait).
    # @return [true]
    def wait_zero
      @state = ZERO_WAIT
      @loop.add_zero_wait(self)
      @loop.run_until(self)
      value = @run_value
      @run_value = nil
      value
    ensure
      settle
    end

    # Queues the resume of the waiting evaluation. The entry is pushed and
    # the phase set with no call or branch between, where an interrupt lands:
    # settle counts a SCHEDULED evaluation's entry as queued. The timer goes
    # last; one left by an interrupt finds the wait over and does nothing.
    # @param value [Object] what the wait returns
    # @return [void]
    def schedule(value)
      @run_value = value
      @loop.queue << self
      @state = SCHEDULED
      timer = @timer or return
      @timer = nil
      @loop.cancel_timer(timer)
    end

    # Leaves the waiting state for good, whatever ended the wait: entries
    # still queued for it go stale. The phase first, with no call or branch
    # where an interrupt could cut it short; the timer, a call, after. A
    # scheduled wait's entry may be gone already: an interrupt can land as
    # the loop takes it, before its run; so the queue is asked (a root's
    # wait seldom ends by an exception).
    def settle
      if (state = @state) > CONCLUDED # else RUNNING or CONCLUDED: not in a wait
        if state == SCHEDULED && @loop.queued?(self) # that entry no longer stands for it
          @stale = @stale.to_i + 1 # no `||`: a branch is where an interrupt lands
          @run_value = nil
        end
        @state = RUNNING
      end
      timer = @timer or return
      @timer = nil
      @loop.cancel_timer(timer)
    end

    # In a forked child the forking fiber is the only one left, and Ruby
    # makes it the thread's root fiber: nothing resumed it, so it cannot
    # yield to a loop. Forked inside a concurrent proc, it forgets that proc
    # and gets a root evaluation on its next wait, which runs the child's
    # fresh loop itself (else the child's first wait raised FiberError).
    EventLoop.on_fork { Thread.current[FIBER_KEY] = nil }
  end
end
