# frozen_string_literal: true

module Heddle
  # A concurrent proc: a Proc whose calls run in a fiber of their own, so
  # they can wait (for time, IO, a resume, another evaluation's result)
  # without blocking the thread. Its four call methods differ in when the
  # proc starts and what the caller gets back:
  #
  # - {#call} runs it now and returns its result, waiting if it waits;
  # - {#call_nonblock} runs it now; returns its result if it never waits,
  #   else its {Proc::Evaluation};
  # - {#call_detached} schedules it for the next loop iteration and returns
  #   its evaluation at once;
  # - {#call_and_forget} schedules it and returns nil (no evaluation object:
  #   the cheapest way to run something in the background).
  #
  # @example
  #   doubler = Heddle.concurrent_proc { |x| Heddle.wait(0.01); x * 2 }
  #   doubler.call(21)                     # => 42
  #   doubler.call_detached(1).await_result # => 2
  class Proc < ::Proc
    # The proc's own Proc#call, used by the fiber that runs it.
    alias __invoke__ call

    # @return [Class] the class of the evaluations the proc creates
    attr_reader :evaluation_class

    # @param evaluation_class [Class] {Proc::Evaluation} or a subclass of it
    # @raise [TypeError] for any other evaluation_class
    def initialize(evaluation_class = Proc::Evaluation)
      super()
      # one comparison for the default (Heddle.concurrently makes a proc per call)
      Waits.evaluation_class!(evaluation_class) unless evaluation_class.equal?(Proc::Evaluation)
      @evaluation_class = evaluation_class
    end

    # Runs the proc now in a fiber and returns its result, waiting for it if
    # the proc waits.
    # @param arg1 [Object] the first of up to Arguments::MAX arguments for the proc (see Arguments)
    # @return [Object] the proc's result
    # @raise [Exception] what the proc raised
    # @example
    #   Heddle.concurrent_proc { |a, b| a + b }.call(1, 2) # => 3
    def call(arg1 = no_args = NONE, arg2 = NONE, arg3 = NONE, arg4 = NONE,
             arg5 = NONE, arg6 = NONE, arg7 = NONE, arg8 = NONE)
      # No Array per call: see Arguments.
      args = no_args ? EMPTY : Arguments.pack(arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8)
      # Hot path (see the call_methods benchmark): inlined call_nonblock.
      context = Thread.current[Evaluation::FIBER_KEY] || Evaluation.__send__(:__bind__)
      loop = context.__send__(:__loop__)
      pooled = loop.pool.delete_at(-1) || PooledFiber.create(loop) # not pop: see EventLoop#pool
      result = pooled.__send__(:__call__, self, args, context)
      return result unless PooledFiber::Signal === result # rubocop:disable Style/CaseEquality -- one C call

      raise result.error unless PooledFiber::SUSPENDED.equal?(result)

      evaluation = pooled.evaluation || pooled.__send__(:__evaluation__)
      evaluation.__send__(:__await_call__, context.__send__(:__evaluation__))
    end

    alias [] call

    # Runs the proc now in a fiber. If it finishes without waiting, returns
    # its result (or raises its error); if it waits, returns its evaluation,
    # which the loop resumes later.
    # @param arg1 [Object] the first of up to Arguments::MAX arguments for the proc (see Arguments)
    # @return [Object, Proc::Evaluation]
    # @raise [Exception] what the proc raised before waiting
    # @example
    #   Heddle.concurrent_proc { :now }.call_nonblock              # => :now
    #   Heddle.concurrent_proc { Heddle.wait(0) }.call_nonblock      # => #<Heddle::Proc::Evaluation>
    def call_nonblock(arg1 = no_args = NONE, arg2 = NONE, arg3 = NONE, arg4 = NONE,
                      arg5 = NONE, arg6 = NONE, arg7 = NONE, arg8 = NONE)
      # No Array per call: see Arguments.
      args = no_args ? EMPTY : Arguments.pack(arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8)
      # Hot path: written for speed, see the call_methods benchmark.
      context = Thread.current[Evaluation::FIBER_KEY] || Evaluation.__send__(:__bind__)
      loop = context.__send__(:__loop__)
      pooled = loop.pool.delete_at(-1) || PooledFiber.create(loop) # not pop: see EventLoop#pool
      result = pooled.__send__(:__call__, self, args, context)
      return result unless PooledFiber::Signal === result # rubocop:disable Style/CaseEquality -- one C call

      raise result.error unless PooledFiber::SUSPENDED.equal?(result)

      pooled.evaluation || pooled.__send__(:__evaluation__)
    end

    # Schedules the proc to start in the next loop iteration; it takes a fiber
    # only when it starts. Inside an evaluation the new one is its child.
    # @param arg1 [Object] the first of up to Arguments::MAX arguments for the proc (see Arguments)
    # @return [Proc::Evaluation]
    # @example
    #   evaluation = Heddle.concurrent_proc { :later }.call_detached
    #   evaluation.await_result # => :later
    def call_detached(arg1 = no_args = NONE, arg2 = NONE, arg3 = NONE, arg4 = NONE,
                      arg5 = NONE, arg6 = NONE, arg7 = NONE, arg8 = NONE)
      # No Array per call: see Arguments.
      args = no_args ? EMPTY : Arguments.pack(arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8)
      context = Thread.current[Evaluation::FIBER_KEY] || Evaluation.__send__(:__bind__)
      loop = context.__send__(:__loop__)
      evaluation = @evaluation_class.new(loop, self, args) # queued: see its initialize
      context.__send__(:__adopt__, evaluation)
      loop.queue << evaluation
      evaluation
    end

    # Schedules the proc like {#call_detached} but creates no evaluation.
    # @param arg1 [Object] the first of up to Arguments::MAX arguments for the proc (see Arguments)
    # @return [nil]
    # @example
    #   Heddle.concurrent_proc { puts "hi" }.call_and_forget
    #   Heddle.wait 0 # prints "hi"
    def call_and_forget(arg1 = no_args = NONE, arg2 = NONE, arg3 = NONE, arg4 = NONE,
                        arg5 = NONE, arg6 = NONE, arg7 = NONE, arg8 = NONE)
      context = Thread.current[Evaluation::FIBER_KEY] || Evaluation.__send__(:__bind__)
      loop = context.__send__(:__loop__)
      # Without arguments the proc itself is the entry (see BareStart); no
      # Array per call either way (see Arguments).
      entry = if no_args
                self
              else
                QueuedCall.for(loop, self,
                               Arguments.pack(arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8))
              end
      loop.queue << entry
      nil
    end
  end
end
