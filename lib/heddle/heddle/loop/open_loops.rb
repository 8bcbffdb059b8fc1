# frozen_string_literal: true

module Heddle
  class EventLoop
    # The loops of this Ractor that hold descriptors open (a wake-up pipe, a
    # selector), with the thread each belongs to. Ruby has no hook for a
    # thread's end, and a loop lives as long as its Thread object (a thread
    # variable), so without this every thread that ever slept in a loop kept
    # its descriptors until the garbage collector freed the Thread: a
    # program that starts threads faster than GC runs met EMFILE. Each time
    # a loop opens its pipe, the loops of threads that ended are closed
    # first, so the count stays at the live threads' loops plus at most the
    # few that ended since the last opening.
    class OpenLoops
      KEY = :__heddle_open_loops__
      private_constant :KEY

      # @return [OpenLoops] this Ractor's registry (Ractor-local: a loop in
      #   another Ractor cannot touch the main Ractor's objects)
      def self.current
        Ractor.current[KEY] ||= new
      end

      def initialize
        # Weak: the registry must not keep a loop (and its pipe) alive after
        # its Thread is freed; the garbage collector then closes the pipe, as
        # it did before there was a registry.
        @loops = ObjectSpace::WeakMap.new
        @lock = Mutex.new
      end

      # Records +loop+ as holding descriptors, after closing those of the
      # loops whose thread has ended.
      # @param loop [EventLoop]
      # @return [void]
      def add(loop)
        @lock.synchronize do
          @loops.each_key do |other|
            # On Ruby 3.1 a WeakMap may yield, for a key already freed, the
            # object that took its slot (CI once got one whose #thread was
            # true): only loops are closed.
            next unless other.is_a?(EventLoop)

            other.close if other.open? && !other.thread.alive?
          end
          @loops[loop] = true
        end
      end

      # @return [Integer] loops of this Ractor holding a wake-up pipe now
      def size
        @lock.synchronize { @loops.each_key.count { |other| other.is_a?(EventLoop) && other.open? } }
      end

      current # the main Ractor's, made at load, before any thread races for it
    end
  end
end
