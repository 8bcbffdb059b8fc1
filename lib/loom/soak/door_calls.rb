# frozen_string_literal: true

module Loom
  module Soak
    # Calls of loom's public core API with good and bad arguments, for the
    # "validate at the door" property (issue 14): a bad call raises the error
    # named here, naming its parameter, and leaves the loop as it was, which
    # {.canary_sings?} checks after every call. Used by the test suite
    # (test/loom/procs/doors_test.rb) and by `loom soak`'s doors load.
    module DoorCalls
      NAN = Float::NAN

      # A pipe nobody writes to, for timed readiness waits.
      def self.pipe = (@pipe ||= IO.pipe)

      # name => [call, the error a bad call raises (nil: a good call), a word its message holds]
      CALLS = {
        await_readable_nil: [-> { Loom.await_readable(nil) }, TypeError, "io"],
        await_writable_int: [-> { Loom.await_writable(42) }, TypeError, "io"],
        await_readable_nan: [-> { Loom.await_readable(DoorCalls.pipe[0], within: NAN) }, ArgumentError, "within"],
        await_resume_nan: [-> { Loom.await_resume!(within: NAN) }, ArgumentError, "within"],
        await_resume_string: [-> { Loom.await_resume!(within: "1") }, TypeError, "within"],
        await_result_nan: [-> { Loom.concurrently { 1 }.await_result(within: NAN) }, ArgumentError, "within"],
        await_result_symbol: [-> { Loom.concurrently { 1 }.await_result(within: :soon) }, TypeError, "within"],
        await_fastest_none: [-> { Loom.await_fastest }, ArgumentError, "await_fastest"],
        await_fastest_int: [-> { Loom.await_fastest(42) }, TypeError, "42"],
        promise_nan: [-> { Loom::Promise.new.wait(NAN) }, ArgumentError, "timeout"],
        promise_string: [-> { Loom::Promise.new.value("1") }, TypeError, "timeout"],
        map_of_int: [-> { Loom.map(5) { |x| x } }, TypeError, "items"],
        pool_of_nothing: [-> { Loom::Pool.new(worker: :goroutine) { nil } }, ArgumentError, "worker"],
        wait_string: [-> { Loom.wait("1") }, TypeError, "seconds"],
        readable_timeout: [-> { Loom.await_readable(DoorCalls.pipe[0], within: 0.001) }, nil, nil],
        resume_timeout: [-> { Loom.await_resume!(within: 0.001, timeout_result: :late) }, nil, nil],
        result_forever: [-> { Loom.concurrently { Loom.wait(0.001) && 2 }.await_result(within: Float::INFINITY) }, nil,
                         nil],
        fastest: [-> { Loom.await_fastest(Loom.concurrently { 3 }, Loom.concurrently { Loom.wait(1) }) }, nil, nil],
        promise_forever: [-> { Loom::Promise.fulfilled(4).value(Float::INFINITY) }, nil, nil]
      }.freeze

      module_function

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

      # A short wait, a timed wait, a Loom.run with a proc, and a small fiber pool map.
      # @return [Boolean]
      def canary_sings?
        Loom.wait(0) == true && Loom.wait(0.001) == true &&
          Loom.run { Loom.concurrently { Loom.wait(0.001) && :ok }.await_result } == :ok &&
          Loom.map([1, 2], worker: :fiber, size: 2) { |x| Loom.wait(0.001) && (x * 2) } == [2, 4]
      end

      # The property: any sequence of calls behaves.
      # @return [Loom::Check::Property]
      def property
        check = Loom::Check
        check.property(check.array(check.one_of(*CALLS.keys), max: 12)) { |names| names.all? { |name| behaves?(name) } }
      end
    end
  end
end
