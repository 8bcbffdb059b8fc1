# frozen_string_literal: true

module Heddle
  class EventLoop
    # One pending timeout: at monotonic +time+, call +target.__timeout__(self)+.
    # +seq+ breaks ties so timers due at the same instant fire in the order
    # they were set; +index+ is the timer's slot in its {TimerHeap}, which is
    # what lets a cancelled timer be removed for real in O(log n).
    class Timer
      attr_reader :time, :seq, :target, :value
      attr_accessor :index

      # @param time [Float] monotonic seconds at which the timer is due
      # @param seq [Integer] insertion order, for ties
      # @param target [#__timeout__] what the timer wakes
      # @param value [Object] the value handed to the target
      def initialize(time, seq, target, value)
        @time = time
        @seq = seq
        @target = target
        @value = value
        @index = nil
      end

      # @param other [Timer]
      # @return [Boolean] true when this timer is due strictly before +other+
      def before?(other)
        @time < other.time || (@time == other.time && @seq < other.seq)
      end
    end
  end
end
