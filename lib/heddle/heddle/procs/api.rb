# frozen_string_literal: true

# The core's module functions: waiting and starting concurrent procs. They
# work in any fiber of any thread; outside a concurrent proc, a wait runs the
# thread's event loop until the wait is over.
module Heddle
  # Writes to whatever $stderr is at the time (so tests can capture it).
  STDERR_LOG = Object.new
  def STDERR_LOG.puts(*lines)
    $stderr.puts(*lines) # rubocop:disable Style/StderrPuts -- warn would drop the lines under -W0
  end

  class << self
    # Suspends the current evaluation until someone calls its
    # {Evaluation#resume!}.
    # @param within [Numeric, nil] give up after this many seconds
    # @param timeout_result [Object] returned on timeout (default: raise)
    # @return [Object] the value passed to resume!
    # @raise [Evaluation::TimeoutError] on timeout without +timeout_result+
    # @example
    #   evaluation = Heddle.concurrently { Heddle.await_resume! }
    #   Heddle.wait 0
    #   evaluation.resume! :value
    #   evaluation.await_result # => :value
    def await_resume!(within: nil, timeout_result: Evaluation::TIMEOUT)
      within = Waits.within!(within) if within
      context = Thread.current[Evaluation::FIBER_KEY] || Evaluation.__send__(:__bind__)
      context.__send__(:__evaluation__).__send__(:__await__, within, timeout_result)
    end

    # Suspends the current evaluation for +seconds+; 0 lets everything
    # already scheduled run first.
    # @param seconds [Numeric] Float::INFINITY waits until resumed; a
    #   negative wait is over at once, like a wait 0
    # @return [true] (or the value of a resume! that ended the wait early)
    # @raise [TypeError] when +seconds+ is not a real number
    # @raise [ArgumentError] when +seconds+ is NaN
    # @example
    #   Heddle.wait 0.01 # => true
    def wait(seconds)
      # The fiber's context waits, not its evaluation: a pooled fiber waits 0
      # without making one when nobody can see it (Proc::PooledFiber#__wait__).
      context = Thread.current[Evaluation::FIBER_KEY] || Evaluation.__send__(:__bind__)
      # Checked at the door unless 0: the hot path (see the wait_methods
      # benchmark) pays one comparison.
      return context.__send__(:__wait__, seconds) if seconds == 0 || (seconds = Waits.seconds!(seconds)) # rubocop:disable Style/NumericPredicate -- opt_eq, no call

      context.__send__(:__evaluation__).__send__(:__await__, nil, true)
    end

    # Suspends the current evaluation until +io+ is readable.
    # @param io [IO]
    # @param within [Numeric, nil]
    # @param timeout_result [Object] returned on timeout
    # @return [true, Object] true, or +timeout_result+
    # @raise [IOError] when +io+ is closed, or is closed (by any thread) while awaited
    # @example
    #   r, w = IO.pipe
    #   w.write "x"
    #   Heddle.await_readable(r) # => true
    def await_readable(io, within: nil, timeout_result: false)
      io = Waits.io!(io) unless IO === io
      within = Waits.within!(within) if within
      evaluation = (Thread.current[Evaluation::FIBER_KEY] || Evaluation.__send__(:__bind__)).__send__(:__evaluation__)
      watch = evaluation.__send__(:__loop__).io
      # A readiness token from the loop's last sweep (see EventLoop::IOWatch)
      # answers at once: one poll serves a batch of waits.
      raise IOError, "closed stream" if io.closed?
      return true if watch.take_readable(io)

      begin
        watch.add_reader(io, evaluation) # inside: an interrupt as it returns must not leave it registered
        result = evaluation.__send__(:__await__, within, timeout_result)
      ensure
        watch.remove_reader(io, evaluation)
      end
      raise IOError, "closed stream" if io.closed? # closed under the waiter: it wakes with the error

      result
    end

    # Suspends the current evaluation until +io+ is writable.
    # @param io [IO]
    # @param within [Numeric, nil]
    # @param timeout_result [Object] returned on timeout
    # @return [true, Object] true, or +timeout_result+
    # @raise [IOError] when +io+ is closed, or is closed (by any thread) while awaited
    # @example
    #   _r, w = IO.pipe
    #   Heddle.await_writable(w) # => true
    def await_writable(io, within: nil, timeout_result: false)
      io = Waits.io!(io) unless IO === io
      within = Waits.within!(within) if within
      evaluation = (Thread.current[Evaluation::FIBER_KEY] || Evaluation.__send__(:__bind__)).__send__(:__evaluation__)
      watch = evaluation.__send__(:__loop__).io
      raise IOError, "closed stream" if io.closed?
      return true if watch.take_writable(io) # as in await_readable

      begin
        watch.add_writer(io, evaluation) # inside: an interrupt as it returns must not leave it registered
        result = evaluation.__send__(:__await__, within, timeout_result)
      ensure
        watch.remove_writer(io, evaluation)
      end
      raise IOError, "closed stream" if io.closed? # closed under the waiter: it wakes with the error

      result
    end

    # @param evaluation_class [Class] a subclass of {Proc::Evaluation}
    # @return [Heddle::Proc] a concurrent proc of the block
    # @example
    #   Heddle.concurrent_proc { |x| x + 1 }.call(1) # => 2
    def concurrent_proc(evaluation_class = Proc::Evaluation, &block)
      raise ArgumentError, "concurrent_proc needs a block" unless block

      Waits.evaluation_class!(evaluation_class)

      Proc.new(evaluation_class, &block)
    end

    # Runs the block concurrently (Proc#call_detached).
    # @param args [Array] passed to the block
    # @return [Proc::Evaluation]
    # @example
    #   Heddle.concurrently(2) { |x| x * 3 }.await_result # => 6
    def concurrently(*args, &block)
      raise ArgumentError, "concurrently needs a block" unless block

      Proc.new(&block).call_detached(*args)
    end

    # Waits until the first of the evaluations concludes.
    # @param evaluations [Array<Proc::Evaluation>] at least two
    # @param within [Numeric, nil]
    # @param timeout_result [Object] returned on timeout (default: raise)
    # @return [Proc::Evaluation] the first to conclude
    # @example
    #   slow = Heddle.concurrently { Heddle.wait 1 }
    #   fast = Heddle.concurrently { :fast }
    #   Heddle.await_fastest(slow, fast) # => fast
    def await_fastest(*evaluations, within: nil, timeout_result: Evaluation::TIMEOUT)
      Waits.evaluations!(evaluations)
      within = Waits.within!(within) if within
      concluded = evaluations.find(&:concluded?)
      return concluded if concluded

      waiter = Evaluation.current
      evaluations.each { |evaluation| evaluation.__send__(:__add_awaiter__, waiter, evaluation) }
      begin
        waiter.__send__(:__await__, within, timeout_result)
      ensure
        evaluations.each { |evaluation| evaluation.__send__(:__remove_awaiter__, waiter) }
      end
    end
  end
end
