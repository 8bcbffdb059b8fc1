# frozen_string_literal: true

require_relative "masks"
require_relative "scheduler/native_io" # loads the C path (Heddle::NativeSync) where it is built

module Heddle
  # A Thread::Mutex whose #synchronize never waits for the lock with
  # asynchronous interrupts (Thread#raise, Thread#kill, a timeout) let in.
  #
  # Why: CRuby's Mutex#lock, when unlock hands the lock to a waiting thread
  # and an interrupt reaches that thread before it runs, drops the lock
  # without waking the next waiter, who then sleeps on a free lock for good
  # (on every Ruby heddle supports: bench/scripts/sync/mutex_lost_wakeup.rb
  # shows it; the story is in docs/journal/sync.md).
  # A waiter that cannot be interrupted cannot drop a lock it was handed.
  #
  # A free lock is taken in C (ext/heddle_native/sync.c), with no wait and
  # no mask; a held one, or any lock with HEDDLE_NATIVE=0, is waited for
  # under {Masks::UNINTERRUPTED}, and then the block runs masked too. So the
  # block must be short and must not block; a ConditionVariable wait in it
  # lets interrupts in again with {Masks::INTERRUPTIBLE} (its re-lock after
  # waking is one Ruby never interrupts). A mask is the thread's, not the
  # fiber's: a fiber that waits here under a Fiber scheduler holds back its
  # thread's interrupts until it has the lock, which the short blocks keep
  # short. Hot path: the promises benchmark.
  #
  # A non-blocking fiber under a Fiber scheduler never parks for the lock
  # (Mutex#lock would park it through the scheduler's block hook): it tries
  # and passes the thread until the lock is free. Parked, it could hang its
  # own thread: when the thread's loop fiber then waited for the same lock,
  # CRuby's unlock handed it to the parked fiber, through a scheduler whose
  # loop was asleep in the mutex (docs/journal/core.md, "A loop asleep on a
  # free lock").
  class MaskedLock < Thread::Mutex
    NATIVE = (Heddle::NativeSync if defined?(Heddle::NativeSync) && Heddle::NativeSync.respond_to?(:synchronize))
    private_constant :NATIVE

    alias mutex_synchronize synchronize
    private :mutex_synchronize

    # {#synchronize} for a caller already under {Masks::UNINTERRUPTED}: a
    # second mask costs more than the lock.
    # @yield with the lock held
    # @return [Object] the block's value
    # @raise [ThreadError] if the calling fiber holds the lock already
    def synchronize_masked(&)
      parking_fiber? ? synchronize_by_trying(&) : mutex_synchronize(&)
    end

    # @yield with the lock held
    # @return [Object] the block's value
    # @raise [ThreadError] if the calling fiber holds the lock already
    def synchronize(&)
      if NATIVE
        result = NATIVE.synchronize(self, &)
        return result unless NATIVE::BUSY == result
      end
      Thread.handle_interrupt(Masks::UNINTERRUPTED) { synchronize_masked(&) }
    end

    private

    # Whether Mutex#lock would park the calling fiber through a scheduler.
    def parking_fiber? = !Fiber.blocking? && !Fiber.scheduler.nil?

    # The lock taken without ever waiting in the mutex's queue.
    def synchronize_by_trying
      raise ThreadError, "deadlock; recursive locking" if owned?

      Thread.pass until try_lock
      begin
        yield
      ensure
        unlock
      end
    end
  end
end
