# frozen_string_literal: true

module Heddle
  class Scheduler
    # The +io_select+ hook: +IO.select+ inside the loop (Ruby 3.3 hands it
    # to the scheduler, even with timeout 0). It suspends only the calling
    # fiber: the fiber waits on every IO at once through the loop's
    # {EventLoop::IOWatch}, then asks +IO.select+ with timeout 0 which are
    # ready, so what it returns is exactly what +IO.select+ would (the
    # original objects, data already in an IO's read buffer counted ready).
    module IOSelect
      # Ruby passes only the arguments its caller gave: +IO.select([r])+
      # calls +io_select([r])+, hence the defaults (those of IO.select).
      # @param readables [Array<IO, #to_io>, nil]
      # @param writables [Array<IO, #to_io>, nil]
      # @param exceptables [Array<IO, #to_io>, nil]
      # @param timeout [Numeric, nil] seconds; nil waits for ever
      # @return [Array(Array, Array, Array), nil] the ready objects, nil when
      #   none became ready within +timeout+
      def io_select(readables, writables = nil, exceptables = nil, timeout = nil)
        ready = select_now(readables, writables, exceptables)
        return ready if ready || timeout&.zero?
        return select_in_loop(readables, writables, timeout) if exceptables.nil? || exceptables.empty?

        # The loop watches readability and writability only: exceptional
        # conditions (TCP urgent data) are waited for by IO.select itself.
        OffThread.call { IO.select(readables, writables, exceptables, timeout) }
      end

      private

      # Waits in the loop until one of the IOs is ready or +timeout+ passed.
      # A wake can be stale (another fiber read first), so each wake asks
      # again and only a ready answer or the timeout returns.
      def select_in_loop(readables, writables, timeout)
        deadline = timeout && (Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout)
        evaluation = Evaluation.current
        while true # rubocop:disable Style/InfiniteLoop -- Scheduler#loop is the EventLoop's reader, not Kernel#loop
          woke = await_any(evaluation, readables, writables, deadline)
          ready = select_now(readables, writables, nil)
          return ready if ready || !woke
        end
      end

      # @return [Boolean] false when the deadline passed first
      def await_any(evaluation, readables, writables, deadline)
        within = deadline && [deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC), 0].max
        watch_all(evaluation, readables, writables, true)
        evaluation.__send__(:__await__, within, false) ? true : false
      ensure
        watch_all(evaluation, readables, writables, false)
      end

      def watch_all(evaluation, readables, writables, add)
        watch = @loop.io
        readables&.each do |io|
          add ? watch.add_reader(io.to_io, evaluation) : watch.remove_reader(io.to_io, evaluation)
        end
        writables&.each do |io|
          add ? watch.add_writer(io.to_io, evaluation) : watch.remove_writer(io.to_io, evaluation)
        end
      end

      # IO.select with timeout 0, run where it calls no hook.
      # @return [Array, nil]
      def select_now(readables, writables, exceptables)
        result = @blocking.call(-> { IO.select(readables, writables, exceptables, 0) })
        raise result if result.is_a?(Exception)

        result
      end
    end
  end
end
