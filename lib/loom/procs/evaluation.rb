# frozen_string_literal: true

module Loom
  # The state of one flow of control that can wait: a concurrent proc's run
  # ({Proc::Evaluation}) or a fiber outside any concurrent proc (a "root"
  # evaluation, e.g. the main fiber of a thread). A root evaluation that
  # waits runs its thread's {EventLoop} until it is resumed.
  #
  # Methods named +__x__+ are the protocol between evaluations, the loop and
  # the proc fibers; they are public for speed, not for users.
  class Evaluation
    # Raised on misuse of an evaluation (resuming one that is not waiting, ...).
    class Error < Loom::Error; end
    # Raised by a wait that gives up after its +within:+ seconds.
    class TimeoutError < Error; end
    # The result of an evaluation cancelled because its parent was concluded.
    class CancelledError < Error; end

    # The fiber-local key holding the fiber's evaluation (or its proc worker).
    FIBER_KEY = :__loom_evaluation__
    # Default +timeout_result+: raise {TimeoutError} instead of returning a value.
    TIMEOUT = Object.new.freeze

    class << self
      # @return [Evaluation] the evaluation of the current fiber (a root
      #   evaluation outside concurrent procs)
      # @example
      #   Loom.concurrently { Loom::Evaluation.current }.await_result # => #<Loom::Proc::Evaluation ...>
      def current
        (Thread.current[FIBER_KEY] || __bind__).__evaluation__
      end

      # Gives the current fiber its root evaluation.
      # @return [Evaluation]
      def __bind__
        Thread.current[FIBER_KEY] = Evaluation.new(EventLoop.current)
      end

      # The text appended to misuse errors, saying how to investigate.
      # @param evaluation [Evaluation]
      # @return [String]
      def notice_for(evaluation)
        "  Evaluation id: #{evaluation.__id__.to_s(36)}\n  " \
          "Call Loom::Evaluation#waiting? and #concluded? to check its state first.\n"
      end
    end

    # @param loop [EventLoop] the loop of the thread the evaluation belongs to
    def initialize(loop)
      @loop = loop
      @waiting = false
      @scheduled = false
      @resumed = false
    end

    # @!attribute [r] __loop__
    #   @return [EventLoop] (an attribute reader: no Ruby frame, bench call_methods)
    attr_reader :loop
    alias __loop__ loop
    remove_method :loop # Kernel#loop stays loop

    # @return [Evaluation] self (a proc worker answers its evaluation)
    def __evaluation__
      self
    end

    # Root evaluations do not track children (1,000,000 pending evaluations
    # started from the main fiber would all be kept alive by it).
    # @return [void]
    def __adopt__(_child); end

    # @return [Boolean] true while the evaluation waits to be resumed
    def waiting?
      @waiting
    end

    # Schedules the waiting evaluation to resume; its wait returns +value+.
    # From another thread the resume is handed to the evaluation's own loop
    # (and applied there if it is still waiting then).
    # @param value [Object] what the wait returns
    # @return [:resumed]
    # @raise [Evaluation::Error] when it is already scheduled or not waiting
    # @example
    #   evaluation = Loom.concurrently { Loom.await_resume! }
    #   Loom.wait 0
    #   evaluation.resume! :go
    #   evaluation.await_result # => :go
    def resume!(value = nil)
      unless Thread.current.equal?(@loop.thread)
        @loop.deliver(self, :__wake__, value)
        return :resumed
      end
      raise self.class::Error, "already scheduled\n#{Evaluation.notice_for(self)}" if @scheduled
      raise self.class::Error, "not waiting\n#{Evaluation.notice_for(self)}" unless @waiting

      __schedule__(value)
      :resumed
    end

    # Resumes the evaluation if it is waiting, else does nothing; safe from
    # any thread.
    # @param value [Object]
    # @return [void]
    def __wake__(value)
      if Thread.current.equal?(@loop.thread)
        __schedule__(value) if @waiting
      else
        @loop.deliver(self, :__wake__, value)
      end
    end

    # Hot path of every resume (bench call_methods_waiting): {#__enqueue__}
    # is inlined.
    # @return [void]
    def __schedule__(value)
      @waiting = false
      @scheduled = true
      if (timer = @timer)
        @timer = nil
        @loop.cancel_timer(timer) unless timer.is_a?(Integer) # a zero-wait token needs no cancelling
      end
      @stale = (@stale || 0) + 1 if @queued
      @queued = true
      @run_value = value
      @loop.queue << self
    end

    # Puts the evaluation on the run queue; a previous entry goes stale.
    # @return [void]
    def __enqueue__(value)
      @stale = (@stale || 0) + 1 if @queued
      @queued = true
      @run_value = value
      @loop.push(self)
    end

    # Makes the queued entry, if any, stale.
    # @return [void]
    def __unqueue__
      return unless @queued

      @queued = false
      @stale = (@stale || 0) + 1
    end

    # Run by the loop: marks the root evaluation resumed; the loop running in
    # its fiber then returns from its wait.
    # @return [Evaluation, nil] self, unless the entry was stale
    def __run__
      if (stale = @stale)
        @stale = stale > 1 ? stale - 1 : nil
        return
      end
      @queued = false
      @scheduled = false
      @waiting = false
      @resumed = true
      self
    end

    # A root evaluation's resume is never run by a proc fiber.
    # @return [false]
    def __chain_into__(_worker)
      false
    end

    # @return [Boolean] whether the root evaluation was resumed
    def __resumed__
      @resumed
    end

    # @return [void]
    def __timeout__(timer)
      return unless @timer.equal?(timer)

      @timer = nil
      __schedule__(timer.value) if @waiting
    end

    # @return [void]
    def __io_ready__
      __schedule__(true) if @waiting
    end

    # Suspends until resumed: here, by running the loop in this fiber.
    # @param within [Numeric, nil] seconds until the wait times out
    # @param timeout_result [Object] returned on timeout ({TIMEOUT}: raise)
    # @return [Object] the resume value
    def __await__(within, timeout_result)
      @waiting = true
      @timer = @loop.add_timer(within, self, timeout_result) if within
      @loop.run_until(self)
      value = @run_value
      @run_value = nil
      raise TimeoutError, "evaluation timed out after #{within} second(s)" if TIMEOUT.equal?(value)

      value
    ensure
      __settle__
    end

    # Waits +seconds+ (0: lets everything already scheduled run first).
    # @return [true]
    def __wait__(seconds)
      return __await__(seconds, true) if seconds.positive?
      # Outside a concurrent proc, with nothing runnable or due, the round
      # would run this wait alone: skip it (bench wait_methods "wait 0":
      # ~1 us -> ~0.1 us). A proc's wait 0 always suspends (call_nonblock
      # returns its evaluation), see Proc::Evaluation#__wait__.
      return true if @loop.nothing_due?

      __wait_zero__
    end

    # Suspends until the next round (a zero-second wait).
    # @return [true]
    def __wait_zero__
      @waiting = true
      @timer = @loop.add_zero_wait(self)
      __await__(nil, nil)
    end

    # The loop's zero-second wait +token+ is due.
    # @return [void]
    def __zero__(token)
      return unless @timer.equal?(token)

      @timer = nil
      return unless @waiting

      # __schedule__(true) inlined, the timer being this spent token (bench
      # call_methods_waiting "waiting ..." rows, wait_methods "wait 0")
      @waiting = false
      @scheduled = true
      @stale = (@stale || 0) + 1 if @queued
      @queued = true
      @run_value = true
      @loop.queue << self
    end

    private

    # Leaves the waiting state for good, whatever ended the wait.
    def __settle__
      @resumed = false
      @waiting = false
      @scheduled = false
      if (timer = @timer)
        @timer = nil
        @loop.cancel_timer(timer)
      end
      __unqueue__ if @queued
    end
  end
end
