# frozen_string_literal: true

module Heddle
  class EventLoop
    # The loops of this Ractor that hold descriptors open (a wake-up pipe, a
    # selector), with the thread each belongs to. Ruby has no hook for a
    # thread's end, so without this every thread that ever slept in a loop
    # kept its descriptors until the garbage collector freed the Thread: a
    # program that starts threads faster than GC runs met EMFILE.
    #
    # The loops of ended threads are closed ("reaped") when the next loop
    # opens its pipe, and after the next garbage collection (a finalizer on
    # a throwaway object, armed when a loop registers, in the main Ractor),
    # so the count stays at the live threads' loops plus at most the few
    # that ended since the last opening or collection. The canary is armed
    # again after each collection while a loop of a live thread other than
    # the main one is registered (it may end before the next), and never at
    # exit, where Ruby runs finalizers until none is left. A loop leaves the
    # registry when it closes ({EventLoop#close}, a reinitialize).
    #
    # Strong references, not ObjectSpace::WeakMap: Ruby 3.1's WeakMap yielded,
    # under thread churn, keys already freed whose slots held other objects
    # (a Symbol, an Array, nil). The registry only ever holds loops
    # that are open, and drops them when they close or are reaped.
    #
    # No lock: each change is one Hash call, atomic under the GVL, and a
    # loop is closed only by the thread whose delete took it out. A lock
    # here hung loops: a proc fiber opening its loop's selector waited for
    # it through the Fiber scheduler, the loop's own fiber then waited for
    # it natively, and the unlock handed it to the parked fiber, leaving the
    # thread asleep on a free lock (docs/journal/core.md).
    class OpenLoops
      KEY = :__heddle_open_loops__
      private_constant :KEY

      # @return [OpenLoops] this Ractor's registry (Ractor-local: a loop in
      #   another Ractor cannot touch the main Ractor's objects)
      def self.current
        Ractor.current[KEY] ||= new
      end

      # A finalizer that reaps +registry+ after the collection that frees the
      # object it is attached to; it holds no reference to that object.
      # @param registry [OpenLoops]
      # @return [Proc]
      def self.reaper(registry)
        proc { registry.reap_after_gc }
      end

      def initialize
        @loops = {}.compare_by_identity
        @canary = false # a GC canary is armed and not yet fired
        @gc_canary = Ractor.current.equal?(Ractor.main) # finalizers run in the main Ractor only
      end

      # Arms no canary from now on: the process is exiting.
      # @return [void]
      def exiting!
        @gc_canary = false
      end

      # Records +loop+ as holding descriptors, after closing those of the
      # loops whose thread has ended.
      # @param loop [EventLoop]
      # @return [void]
      def add(loop)
        reap
        @loops[loop] = true
        arm_canary
      end

      # Forgets +loop+ (it closed its descriptors).
      # @param loop [EventLoop]
      # @return [void]
      def remove(loop)
        @loops.delete(loop)
      end

      # Closes the loops whose thread has ended and forgets them.
      # @return [Integer] how many were closed
      def reap
        ended = take_ended
        ended.each(&:close)
        ended.size
      end

      # {#reap} after a garbage collection, from a finalizer. Finalizers run
      # in trap context, where a Mutex may not be locked (nor a selector
      # closed), so the reaping runs in a thread of its own, started only
      # when a registered loop's thread has ended.
      # @return [Thread, nil] the reaping thread, if one was needed
      def reap_after_gc
        @canary = false
        arm_canary if watching?
        return if @loops.keys.all? { |loop| loop.thread.alive? }

        Thread.new { reap }.tap { |thread| thread.name = "heddle-loop-reaper" }
      rescue ThreadError
        nil # at exit no thread may start; the process closes the descriptors
      end

      # @return [Integer] loops of this Ractor holding a wake-up pipe now
      def size
        @loops.keys.count(&:open?) # a copy: another thread may add meanwhile
      end

      private

      # Removes and returns the loops of ended threads: each one whose
      # delete this thread made, so two reapers never close the same loop.
      def take_ended
        @loops.keys.select { |loop| !loop.thread.alive? && @loops.delete(loop) }
      end

      # Whether a registered loop's thread may still end: a live thread
      # other than the main one (the main thread's end is the process's).
      def watching?
        main = Thread.main
        @loops.keys.any? { |loop| loop.thread.alive? && !main.equal?(loop.thread) }
      end

      # One canary at a time, armed when a loop registers and after a
      # collection while {#watching?}. A reaper thread starts only when a
      # loop's thread has ended, not after every collection.
      def arm_canary
        return if @canary || !@gc_canary

        @canary = true
        ObjectSpace.define_finalizer(Object.new, OpenLoops.reaper(self))
      end

      current # the main Ractor's, made at load, before any thread races for it
      at_exit { current.exiting! } # at_exit blocks run before the finalizers at exit
    end
  end
end
