# frozen_string_literal: true

module Heddle
  class EventLoop
    # A binary min-heap of {Timer}s ordered by due time. Insert and delete are
    # O(log n); every timer knows its index, so cancelling one removes it at
    # once instead of leaving a dead entry behind (Concurrently keeps cancelled
    # timers until they come due, so early-resolved `within:` waits pile up).
    #
    # The heap orders an array its owner hands it and keeps reading: the loop
    # asks that array `empty?` and `[0]` every round with no method call of
    # ours in between (hot path, see the wait_methods benchmark). Only the
    # heap writes it.
    class TimerHeap
      # @param list [Array] an empty array to keep ordered, first due at
      #   index 0; the caller may read it and must not write it
      # @raise [ArgumentError] when +list+ is not an empty array
      def initialize(list = [])
        unless list.instance_of?(Array) && list.empty?
          raise ArgumentError, "list must be an empty Array, got #{list.inspect}"
        end

        @heap = list
      end

      # @return [Integer] the number of pending timers
      def size
        @heap.size
      end

      # @return [Boolean] true when no timer is pending
      def empty?
        @heap.empty?
      end

      # @return [Timer, nil] the timer due first
      def first
        @heap[0]
      end

      # @param timer [Timer] a timer not yet in any heap
      # @return [Timer] the timer
      def push(timer)
        timer.index = @heap.size
        @heap << timer
        sift_up(timer.index)
        timer
      end

      # Removes and returns the timer due first.
      # @return [Timer, nil]
      def shift
        delete(@heap[0]) unless @heap.empty?
      end

      # Removes +timer+ wherever it is in the heap; a no-op when it is not in it.
      # @param timer [Timer]
      # @return [Timer, nil] the timer, or nil when it was not pending
      def delete(timer)
        index = timer.index
        return unless index && @heap[index].equal?(timer)

        last = @heap.pop
        timer.index = nil
        return timer if last.equal?(timer)

        @heap[index] = last
        last.index = index
        sift_down(sift_up(index))
        timer
      end

      # Drops every timer (used when a forked child starts a clean loop).
      # @return [void]
      def clear
        @heap.each { |timer| timer.index = nil }
        @heap.clear
      end

      private

      def sift_up(index)
        heap = @heap
        timer = heap[index]
        while index.positive?
          parent_index = (index - 1) >> 1
          parent = heap[parent_index]
          break unless timer.before?(parent)

          heap[index] = parent
          parent.index = index
          index = parent_index
        end
        heap[index] = timer
        timer.index = index
      end

      def sift_down(index)
        heap = @heap
        size = heap.size
        timer = heap[index]
        loop do
          child = (index << 1) + 1
          break if child >= size

          right = child + 1
          child = right if right < size && heap[right].before?(heap[child])
          break unless heap[child].before?(timer)

          heap[index] = heap[child]
          heap[index].index = index
          index = child
        end
        heap[index] = timer
        timer.index = index
      end
    end
  end
end
