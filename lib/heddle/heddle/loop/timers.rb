# frozen_string_literal: true

module Heddle
  class EventLoop
    # The timers of a loop: a heap of {Timer}s with real removal on cancel,
    # and a flat list for zero-second waits, both fired at the start of a
    # round in due order. Included in {EventLoop}, whose constructor sets
    # the state (+@timers+, +@timer_list+, +@zero+, +@seq+).
    module Timers
      # Sets a timer that calls +target.__timeout__(timer)+ after +seconds+.
      # @param seconds [Numeric]
      # @param target [#__timeout__]
      # @param value [Object] carried by the timer
      # @return [Timer]
      def add_timer(seconds, target, value)
        @timers.push(Timer.new(now + seconds, @seq += 1, target, value))
      end

      # Registers a zero-second wait: +target.__zero__(token)+ is called at the
      # start of the next round, in due order with the timers. Cheaper than a
      # {Timer} (hot path of the wait_methods and call_methods_waiting
      # benchmarks): three slots in a flat list, no heap.
      # @param target [#__zero__]
      # @return [Integer] the token (a {#cancel_timer} of it is a no-op)
      def add_zero_wait(target)
        # The time only orders it against timers pending now: any timer set
        # later is due later anyway, so without timers no clock read is needed.
        @zero << target << (@timer_list.empty? ? 0.0 : now) << (@seq += 1)
        @seq
      end

      # Removes +timer+ for real (no dead entry is left behind).
      # @param timer [Timer, Integer] a timer, or a zero-wait token (no-op)
      # @return [void]
      def cancel_timer(timer)
        @timers.delete(timer) unless timer.is_a?(Integer)
      end

      # @return [Integer] pending timers (zero-second waits included)
      def timer_count
        @timers.size + (@zero.size / 3)
      end

      private

      # Schedules the zero-second waits and the due timers, merged by due time.
      def fire_due
        zero = @zero
        return fire_zero(zero, 0) if @timer_list.empty?

        time = now
        index = 0
        while (timer = @timers.first) && timer.time <= time
          while index < zero.size && zero[index + 1] <= timer.time
            zero[index].__send__(:__zero__, zero[index + 2])
            index += 3
          end
          @timers.shift
          timer.target.__send__(:__timeout__, timer)
        end
        fire_zero(zero, index)
      end

      def fire_zero(zero, index)
        while index < zero.size
          zero[index].__send__(:__zero__, zero[index + 2])
          index += 3
        end
        zero.clear
      end
    end
  end
end
