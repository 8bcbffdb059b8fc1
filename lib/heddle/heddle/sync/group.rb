# frozen_string_literal: true

require_relative "../error"

module Heddle
  # Concurrent procs started together and ended together (async's Barrier):
  # {#spawn} starts each on this thread's loop, {#wait} waits for all of
  # them and returns their results, {#stop} cancels the unfinished ones
  # (their ensure blocks run). The first error any of them raises ends the
  # wait: the others are stopped and the error is raised, once.
  #
  # With +limit:+, at most that many of its procs run their block at once
  # (a {Semaphore}); the rest wait their turn.
  #
  # A group belongs to the thread that made it (its procs run on that
  # thread's loop); use it inside {Heddle.run} for procs that make plain
  # blocking calls.
  #
  # @example
  #   Heddle.run do
  #     group = Heddle::Group.new(limit: 2)
  #     %w[a bb ccc].each { |word| group.spawn(word) { |w| sleep 0.01; w.size } }
  #     group.wait # => [1, 2, 3]
  #   end
  class Group
    # What a stopped proc's evaluation concludes to.
    class StoppedError < Heddle::Error; end

    # @param limit [Integer, nil] at most this many blocks run at once; nil: no limit
    # @raise [TypeError, ArgumentError] for a +limit+ that is not an Integer >= 1
    def initialize(limit: nil)
      @semaphore = nil.equal?(limit) ? nil : Semaphore.new(limit)
      @thread = Thread.current
      @evaluations = []
      @pending = 0
      @error = nil
      @waiter = nil
    end

    # Starts +block+ with +args+ as a concurrent proc in the group.
    # @param args [Array] passed to the block
    # @yieldreturn [Object] the proc's result
    # @return [Heddle::Proc::Evaluation]
    # @raise [ArgumentError] without a block
    # @raise [Heddle::Error] from another thread than the group's
    def spawn(*args, &block)
      raise ArgumentError, "Group#spawn needs a block" unless block

      own_thread!("spawn")
      evaluation = Heddle.concurrently(*args) { |*given| run(block, given) }
      @evaluations << evaluation
      # Counted by its conclusion, however it comes: the block's end, #stop,
      # or a conclude_to before the block ever started.
      unless evaluation.concluded?
        @pending += 1
        evaluation.__send__(:__add_awaiter__, self)
      end
      evaluation
    end

    # Waits until every proc spawned so far has finished.
    # @param within [Numeric, nil] seconds to wait at most, >= 0 (the procs
    #   go on); nil or Float::INFINITY: no limit
    # @return [Array] their results, in spawn order
    # @raise [Exception] the first error a proc raised (the others are
    #   stopped first); raised by this wait only
    # @raise [Heddle::Evaluation::TimeoutError] when +within+ passes first
    # @raise [TypeError, ArgumentError] for a +within+ that is not a number >= 0
    # @raise [Heddle::Error] from another thread than the group's
    def wait(within: nil)
      within &&= Seconds.check!(within, "Group#wait within:", :non_negative, no_limit: "nil or Float::INFINITY")
      own_thread!("wait")
      wait_for_all(within)
      if (error = @error)
        @error = nil
        stop
        raise error
      end
      results
    end

    # Cancels every unfinished proc of the group: each is unwound where it
    # is (its ensure blocks run) and concludes to a {StoppedError}.
    # @return [Integer] how many were stopped
    # @raise [Heddle::Error] from another thread than the group's
    def stop
      own_thread!("stop")
      me = Heddle::Evaluation.current
      stopped = @evaluations.count do |evaluation|
        next false if evaluation.concluded? || evaluation.equal?(me)

        evaluation.conclude_to(StoppedError.new("stopped by Heddle::Group#stop"))
      end
      @evaluations.clear if @pending.zero?
      stopped
    end

    # @return [Integer] procs spawned and not concluded
    attr_reader :pending

    # One of the group's procs concluded (Proc::Evaluation's awaiter
    # protocol): counts it, and wakes the wait when all are done or one failed.
    # @param _result [Object] its result
    # @return [void]
    private def __wake__(_result)
      @pending -= 1
      @waiter&.__send__(:__wake__, true) if @pending.zero? || @error
    end

    # @return [Boolean] whether no proc is unfinished
    def empty?
      @pending.zero?
    end

    # @return [Array<Heddle::Proc::Evaluation>] the procs spawned since the last finished wait
    def evaluations
      @evaluations.dup
    end

    private

    # The body of each spawned proc. An error is its result, not raised:
    # the group reports it (through #wait), not the loop's error log.
    def run(block, args)
      @semaphore ? @semaphore.acquire { block.call(*args) } : block.call(*args)
    rescue StandardError => e
      @error ||= e
      e
    end

    def wait_for_all(within)
      deadline = within && (Process.clock_gettime(Process::CLOCK_MONOTONIC) + within)
      until @pending.zero? || @error
        @waiter = Heddle::Evaluation.current
        left = deadline && [deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC), 0].max
        timed_out!(within) if Heddle.await_resume!(within: left, timeout_result: :timed_out) == :timed_out
      end
    ensure
      @waiter = nil
    end

    def timed_out!(within)
      raise Heddle::Evaluation::TimeoutError, "Group#wait: #{@pending} of the group's procs still ran after " \
                                              "#{within} second(s) (they go on; #stop ends them)"
    end

    def results
      values = @evaluations.map { |evaluation| evaluation.await_result { |result| result } }
      @evaluations.clear
      values
    end

    def own_thread!(call)
      return if Thread.current.equal?(@thread)

      raise Heddle::Error, "Group##{call}: the group belongs to #{@thread.inspect}; its procs run on that " \
                           "thread's loop (make a group per thread)"
    end
  end
end
