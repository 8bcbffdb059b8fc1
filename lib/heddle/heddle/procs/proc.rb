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
  #
  # Errors a proc raises are reported to +on(:error)+ hooks: the class's
  # (for every proc, run with the proc as self) and single procs', and a
  # default hook that logs to $stderr, redirected with {.error_log_output=}.
  class Proc < ::Proc
    # The events a proc reports.
    EVENTS = [:error].freeze
    private_constant :EVENTS

    # The proc's own Proc#call, used by the fiber that runs it.
    alias __invoke__ call

    class << self
      # Registers a hook for errors raised by any concurrent proc of this
      # class; the block runs with the proc as self.
      # @param event [Symbol] :error
      # @yieldparam error [Exception]
      # @return [ErrorHook]
      # @example
      #   Heddle::Proc.on(:error) { |error| warn "#{source_location.join(':')}: #{error}" }
      def on(event, &block)
        add_hook(error_hooks, event, block, true, false)
      end

      # As {.on}, for the next error only: the hook cancels itself before it runs.
      # @param event [Symbol] :error
      # @yieldparam error [Exception]
      # @return [ErrorHook]
      def once_on(event, &block)
        add_hook(error_hooks, event, block, true, true)
      end

      # @param event [Symbol] :error
      # @return [Boolean] whether a hook for +event+ is registered on this class (not its ancestors)
      def on?(event)
        EVENTS.include?(event) && !error_hooks.empty?
      end

      # @return [Array<ErrorHook>]
      def error_hooks
        @error_hooks ||= []
      end

      # Where errors of concurrent procs are logged: an IO-like object
      # (anything with #puts), a Logger (anything with #error), or
      # nil/false to stop logging.
      # @param output [#puts, #error, nil, false]
      # @return [void]
      # @raise [Heddle::Error] when +output+ can neither puts nor error
      # @example
      #   Heddle::Proc.error_log_output = false
      def error_log_output=(output)
        # checked before the current output is let go
        unless !output || output.respond_to?(:puts) || output.respond_to?(:error)
          raise Heddle::Error, unusable_log_output_message(output)
        end

        @error_log_hook&.cancel
        @error_log_hook = nil
        return unless output

        @error_log_hook = log_hook(self, output)
      end

      # @param proc [Heddle::Proc]
      # @param error [Exception]
      # @return [String] the message logged for +error+
      def default_error_log_message(proc, error)
        <<~MSG
          Concurrent proc exited with error!
          Source location: #{proc.source_location&.join(':')}
          Error: (#{error.class}) #{error}
          Backtrace: #{error.backtrace&.join("\n")}
        MSG
      end

      private

      # Checks the event and block, then registers the hook in +hooks+ (a class's or a proc's).
      # @return [ErrorHook]
      def add_hook(hooks, event, block, instance_scope, once)
        check_event(event, block)
        hooks << ErrorHook.new(hooks, block, instance_scope, once: once)
        hooks.last
      end

      # @return [void]
      def check_event(event, block)
        raise ArgumentError, "unknown event #{event.inspect}: concurrent procs only report :error" unless
          EVENTS.include?(event)
        raise ArgumentError, "on(:error) needs a block" unless block
      end

      # @return [ErrorHook]
      def log_hook(klass, output)
        if output.respond_to?(:puts)
          klass.on(:error) { |error| output.puts(klass.default_error_log_message(self, error)) }
        else
          klass.on(:error) { |error| output.error(klass.default_error_log_message(self, error)) }
        end
      end

      # (heddle/concurrently answers Concurrently's message instead)
      # @return [String]
      def unusable_log_output_message(output)
        "error log output #{output.inspect} is neither IO-like (#puts) nor a Logger " \
          "(#error); pass $stderr, a Logger, or false"
      end
    end

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
      loop = context.__loop__
      pooled = loop.pool.delete_at(-1) || PooledFiber.create(loop) # not pop: see EventLoop#pool
      result = pooled.call_job(self, args, context)
      return result unless PooledFiber::Signal === result # rubocop:disable Style/CaseEquality -- one C call

      raise result.error unless PooledFiber::SUSPENDED == result

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
      loop = context.__loop__
      pooled = loop.pool.delete_at(-1) || PooledFiber.create(loop) # not pop: see EventLoop#pool
      result = pooled.call_job(self, args, context)
      return result unless PooledFiber::Signal === result # rubocop:disable Style/CaseEquality -- one C call

      raise result.error unless PooledFiber::SUSPENDED == result

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
      loop = context.__loop__
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
      loop = context.__loop__
      # Without arguments the proc itself is the entry (see #__run__); no
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

    # Registers a hook for this proc's errors only.
    # @param event [Symbol] :error
    # @yieldparam error [Exception]
    # @return [ErrorHook]
    def on(event, &block)
      Proc.__send__(:add_hook, @error_hooks ||= [], event, block, false, false)
    end

    # As {#on}, for this proc's next error only: the hook cancels itself before it runs.
    # @param event [Symbol] :error
    # @yieldparam error [Exception]
    # @return [ErrorHook]
    def once_on(event, &block)
      Proc.__send__(:add_hook, @error_hooks ||= [], event, block, false, true)
    end

    # @param event [Symbol] :error
    # @return [Boolean] whether a hook for +event+ is registered on this proc itself
    def on?(event)
      EVENTS.include?(event) && !(@error_hooks.nil? || @error_hooks.empty?)
    end

    # Triggers +event+ (:error) as if the proc had raised +args.first+;
    # the pooled fiber calls this for every error a proc raises.
    # @param event [Symbol] :error
    # @param args [Array] the error
    # @return [:triggered]
    def trigger(event, *args)
      Proc.__send__(:check_event, event, true)
      report_error(*args)
      :triggered
    end

    # Starts the proc without arguments (or holds it back while too many
    # fibers are live; it comes back here when one is free).
    #
    # A {#call_and_forget} without arguments queues the proc itself, not a
    # {QueuedCall}: nothing needs to be kept but the proc. This method and
    # {#__chain_into__} make a proc a run-queue entry: the loop starts it in a
    # pooled fiber (here), or a pooled fiber that just finished takes it in
    # place ({#__chain_into__}), as it does a QueuedCall. No QueuedCall is
    # taken from and given back to the loop's free list per call (hot path,
    # see the call_methods benchmark).
    # An interrupt that lands before the proc began queues it again.
    # @return [Object] what the pooled fiber returned
    private def __run__
      loop = (Thread.current[Evaluation::FIBER_KEY] || Evaluation.__send__(:__bind__)).__send__(:__loop__)
      return if loop.pool.empty? && !PooledFiber.provide(loop, self)

      # No branch or return from the take to the resume: Ruby lands interrupts there.
      pooled = loop.pool.delete_at(-1) # not pop: see EventLoop#pool
      pooled.start_job(self, Arguments::EMPTY, nil)
    rescue FiberRefusedError => e
      trigger(:error, e)
    rescue Exception # rubocop:disable Lint/RescueException -- any interrupt; re-raised
      restart(loop, pooled) if loop
      raise
    end

    # A free pooled fiber that finished its job runs this start next, in place.
    # @param pooled [PooledFiber]
    # @return [true]
    private def __chain_into__(pooled)
      pooled.take_job(self, Arguments::EMPTY, nil)
      true
    end

    private

    # Queues this start again if the interrupt left it unstarted: before the
    # take (and not held back), or taken by a fiber whose job had not begun.
    def restart(loop, pooled)
      return unless pooled ? pooled.give_back(self, Arguments::EMPTY, nil) : !loop.held.include?(self)

      loop.queue << self
    end

    # Runs the hooks for +error+: the classes' (from Heddle::Proc down), then
    # this proc's. A failing hook is reported with warn, not raised.
    # @param error [Exception]
    # @return [void]
    def report_error(error)
      self.class.ancestors.reverse_each do |klass|
        next unless klass <= Proc # Heddle::Proc and its subclasses: the classes with hooks

        klass.error_hooks.dup.each { |hook| run_hook(hook, error) }
      end
      @error_hooks&.dup&.each { |hook| run_hook(hook, error) }
    end

    def run_hook(hook, error)
      hook.call(self, error)
    rescue StandardError => e
      warn "heddle: an on(:error) hook raised #{e.class}: #{e.message}"
    end
  end
end
