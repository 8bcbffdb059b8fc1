# frozen_string_literal: true

module Heddle
  module Soak
    # Calls of heddle's public core API with good and bad arguments, for the
    # "validate at the door" property: a bad call raises the error
    # named here, naming its parameter, and leaves the loop as it was, which
    # {.canary_sings?} checks after every call. Used by the test suite
    # (test/heddle/procs/doors_test.rb) and by `heddle soak`'s doors load.
    module DoorCalls
      NAN = Float::NAN

      # A pipe nobody writes to, for timed readiness waits.
      def self.pipe = (@pipe ||= IO.pipe)

      # name => [call, the error a bad call raises (nil: a good call), a word its message holds]
      CALLS = {
        await_readable_nil: [-> { Heddle.await_readable(nil) }, TypeError, "io"],
        await_writable_int: [-> { Heddle.await_writable(42) }, TypeError, "io"],
        await_readable_nan: [-> { Heddle.await_readable(DoorCalls.pipe[0], within: NAN) }, ArgumentError, "within"],
        await_resume_nan: [-> { Heddle.await_resume!(within: NAN) }, ArgumentError, "within"],
        await_resume_string: [-> { Heddle.await_resume!(within: "1") }, TypeError, "within"],
        await_result_nan: [-> { Heddle.concurrently { 1 }.await_result(within: NAN) }, ArgumentError, "within"],
        await_result_symbol: [-> { Heddle.concurrently { 1 }.await_result(within: :soon) }, TypeError, "within"],
        await_fastest_none: [-> { Heddle.await_fastest }, ArgumentError, "await_fastest"],
        await_fastest_int: [-> { Heddle.await_fastest(42) }, TypeError, "42"],
        promise_nan: [-> { Heddle::Promise.new.wait(NAN) }, ArgumentError, "timeout"],
        promise_string: [-> { Heddle::Promise.new.value("1") }, TypeError, "timeout"],
        promise_all_int: [-> { Heddle::Promise.all(5) }, TypeError, "Promise.all"],
        promise_rescue_int: [-> { Heddle::Promise.new.rescue(5) { nil } }, TypeError, "rescue"],
        map_of_int: [-> { Heddle.map(5) { |x| x } }, TypeError, "items"],
        pool_of_nothing: [-> { Heddle::Pool.new(worker: :goroutine) { nil } }, ArgumentError, "worker"],
        map_of_a_million_fibers: [-> { Heddle.map([1, 2], worker: :fiber, size: 10**6) { |x| x } }, ArgumentError,
                                  "size"],
        map_beyond_its_items: [-> { Heddle.map([1, 2], worker: :thread, size: 10_000) { |x| x } }, nil, nil],
        check_array_of_int: [-> { Heddle::Check.array(42) }, TypeError, "of:"],
        check_float_nil: [-> { Heddle::Check.float(min: nil) }, TypeError, "min:"],
        check_set_impossible: [-> { Heddle::Check.set(Heddle::Check.boolean, min: 5) }, ArgumentError, "min:"],
        check_array_huge: [-> { Heddle::Check.array(Heddle::Check.boolean, min: 10**30) }, ArgumentError, "min:"],
        wait_string: [-> { Heddle.wait("1") }, TypeError, "seconds"],
        wait_nan: [-> { Heddle.wait(NAN) }, ArgumentError, "seconds"],
        await_result_options: [-> { Heddle.concurrently { 1 }.await_result(5) }, TypeError, "options"],
        await_result_unknown_option: [-> { Heddle.concurrently { 1 }.await_result({ in: 1 }) }, ArgumentError, ":in"],
        # raised inside the proc and returned: await_result raises it, and no error log is printed
        await_children_string: [-> { DoorCalls.inside { Heddle::Evaluation.current.await_children(within: "1") } },
                                TypeError, "within"],
        concurrent_proc_class: [-> { Heddle.concurrent_proc(String) { 1 } }, TypeError, "evaluation_class"],
        wait_forever: [-> { DoorCalls.inside { Heddle.wait(Float::INFINITY) }.tap { Heddle.wait(0) }.resume!(:go) },
                       nil, nil],
        await_result_elsewhere: [-> { DoorCalls.elsewhere(Heddle.concurrently { Heddle.wait(0.001) && 5 }) }, nil, nil],
        readable_timeout: [-> { Heddle.await_readable(DoorCalls.pipe[0], within: 0.001) }, nil, nil],
        resume_timeout: [-> { Heddle.await_resume!(within: 0.001, timeout_result: :late) }, nil, nil],
        result_forever: [-> { Heddle.concurrently { Heddle.wait(0.001) && 2 }.await_result(within: Float::INFINITY) },
                         nil, nil],
        fastest: [-> { Heddle.await_fastest(Heddle.concurrently { 3 }, Heddle.concurrently { Heddle.wait(1) }) },
                  nil, nil],
        promise_forever: [-> { Heddle::Promise.fulfilled(4).value(Float::INFINITY) }, nil, nil]
      }.freeze

      module_function

      # Runs the block in a concurrent proc; returns its evaluation, or
      # raises the ArgumentError/TypeError the block raised (returned by the
      # proc, so no error log is printed).
      # @return [Heddle::Proc::Evaluation]
      def inside
        evaluation = Heddle.concurrently do
          yield
        rescue ArgumentError, TypeError => e
          e
        end
        Heddle.wait(0)
        evaluation.await_result if evaluation.concluded?
        evaluation
      end

      # Awaits the evaluation's result from another thread while this one runs its loop.
      # @param evaluation [Heddle::Proc::Evaluation]
      # @return [Object] the result
      def elsewhere(evaluation)
        waiter = Thread.new { evaluation.await_result(within: 30) }
        Heddle.wait(0.001) until waiter.join(0)
        waiter.value
      end

      # Makes the call; returns the class of the ArgumentError/TypeError it
      # raised, or nil.
      # @param name [Symbol] a key of {CALLS}
      # @return [Class, nil]
      def outcome(name)
        CALLS.fetch(name).first.call
        nil
      rescue ArgumentError, TypeError => e
        e.class
      end

      # @param name [Symbol]
      # @return [Boolean] whether the call did what {CALLS} says and the loop still works
      def behaves?(name) = outcome(name) == CALLS.fetch(name)[1] && canary_sings?

      # A short wait, a timed wait, a Heddle.run with a proc, and a small fiber pool map.
      # @return [Boolean]
      def canary_sings?
        Heddle.wait(0) == true && Heddle.wait(0.001) == true &&
          Heddle.run { Heddle.concurrently { Heddle.wait(0.001) && :ok }.await_result } == :ok &&
          Heddle.map([1, 2], worker: :fiber, size: 2) { |x| Heddle.wait(0.001) && (x * 2) } == [2, 4]
      end

      # The property: any sequence of calls behaves.
      # @return [Heddle::Check::Property]
      def property
        check = Heddle::Check
        check.property(check.array(check.one_of(*CALLS.keys), max: 12)) { |names| names.all? { |name| behaves?(name) } }
      end
    end
  end
end
