# frozen_string_literal: true

require_relative "../masked_lock"
require_relative "../masks"

require_relative "../scheduler/native_io" # loads the C path (Heddle::NativeSync) where it is built

module Heddle
  # Lets at most +limit+ holders in at a time: "10 of these 50 requests at
  # once". Threads and fibers may share one: a concurrent proc, a fiber under
  # {Heddle.run} and a plain thread each wait their own way (a heddle fiber
  # suspends only itself, a thread blocks), through a {Heddle::Promise}.
  # Waiters get in first come, first served; a release hands its slot
  # straight to the next waiter, so a newcomer cannot overtake them.
  #
  # A wait that is interrupted ({Heddle.with_timeout}, a cancelled proc,
  # Thread#raise, Thread#kill) leaves the queue, or hands back the slot it
  # was given meanwhile. The bookkeeping runs with asynchronous interrupts
  # held back (Thread.handle_interrupt), and only the wait itself and the
  # block are interruptible, so with a block no slot is ever lost, wherever
  # an interrupt lands. A bare {#acquire} is as safe as Mutex#lock: an
  # interrupt that lands just as it returns leaves the slot taken and its
  # caller unaware; use the block form where interrupts may come.
  #
  # @example
  #   semaphore = Heddle::Semaphore.new(2)
  #   Heddle.run do
  #     5.times.map { |i| Heddle.concurrently { semaphore.acquire { sleep 0.01; i } } }.map(&:await_result)
  #   end # => [0, 1, 2, 3, 4], two at a time
  class Semaphore
    # The largest limit: more holders than a process can have (each is a
    # thread or a fiber), and the largest C int.
    MAX_LIMIT = (2**31) - 1
    # The C fast path of an uncontended acquire with a block, or nil (pure
    # Ruby, HEDDLE_NATIVE=0): it counts the slot and sets up its ensure in
    # one step that no interrupt can split, without Thread.handle_interrupt,
    # which costs more than the rest of the acquire (see the sync benchmark).
    NATIVE = (Heddle::NativeSync if defined?(Heddle::NativeSync))
    private_constant :NATIVE

    # @return [Integer] how many may hold it at once
    attr_reader :limit

    # @param limit [Integer] 1 to {MAX_LIMIT}
    # @raise [TypeError] unless +limit+ is an Integer
    # @raise [ArgumentError] unless +limit+ is between 1 and {MAX_LIMIT}
    def initialize(limit)
      raise TypeError, "Semaphore.new: limit must be an Integer, got #{Error.describe(limit)}" unless Integer === limit # rubocop:disable Style/CaseEquality -- answers for a BasicObject too
      unless limit.between?(1, MAX_LIMIT)
        raise ArgumentError, "Semaphore.new: limit must be between 1 and #{MAX_LIMIT}, got #{limit}"
      end

      @limit = limit
      @count = 0
      @waiting = []
      @mutex = MaskedLock.new
    end

    # Takes a slot, waiting while all +limit+ are held. With a block, holds
    # the slot for the block only and returns the block's value.
    # @yieldreturn [Object]
    # @return [true, Object] true, or the block's value
    # @example
    #   semaphore = Heddle::Semaphore.new(1)
    #   semaphore.acquire { :held } # => :held
    def acquire(&block)
      return Thread.handle_interrupt(Masks::UNINTERRUPTED) { wait_for_slot } unless block

      if NATIVE
        result = NATIVE.acquire(self, &block)
        return result unless NATIVE::BUSY.equal?(result)
      end
      Thread.handle_interrupt(Masks::UNINTERRUPTED) do
        wait_for_slot
        begin
          # not &block: handle_interrupt yields an argument, which a lambda refuses
          Thread.handle_interrupt(Masks::INTERRUPTIBLE) { block.call }
        ensure
          release_held # already masked: a second mask costs a Hash on 3.1
        end
      end
    end

    # Gives a slot back (to the longest waiter, if any).
    # @return [void]
    # @raise [Heddle::Error] when no slot is held
    # @example
    #   semaphore = Heddle::Semaphore.new(1)
    #   semaphore.acquire
    #   semaphore.release
    def release
      Thread.handle_interrupt(Masks::UNINTERRUPTED) { release_held }
      nil
    end

    # @return [Integer] slots held now
    def count
      @mutex.synchronize { @count }
    end

    # @return [Integer] acquirers waiting for a slot
    def waiting
      @mutex.synchronize { @waiting.size }
    end

    # @return [Boolean] whether an acquire would wait now
    def blocking?
      @mutex.synchronize { @count >= @limit }
    end

    # @return [String]
    def inspect
      "#<#{self.class.name} #{count}/#{@limit} held, #{waiting} waiting>"
    end

    private

    # A slot now, or a promise fulfilled when a release hands one over.
    # Called with interrupts held back.
    # @return [true]
    def wait_for_slot
      # No `return` from inside the block: a non-local return out of
      # synchronize tripled the cost of an uncontended acquire (bench sync).
      promise = @mutex.synchronize_masked do
        if @count < @limit && @waiting.empty?
          @count += 1
          nil
        else
          Promise.new.tap { |waiter| @waiting << waiter }
        end
      end
      await(promise) if promise
      true
    end

    # Waits for the hand-over, the one interruptible part; interrupted,
    # leaves the queue or gives back the slot handed over meanwhile.
    def await(promise)
      Thread.handle_interrupt(Masks::INTERRUPTIBLE) { promise.wait }
      waited = true
    ensure
      give_up(promise) unless waited
    end

    # {#release}'s work, called with interrupts held back.
    def release_held
      waiter = @mutex.synchronize_masked do
        raise Heddle::Error, "Semaphore#release: no slot is held (acquire first)" if @count.zero?

        next_waiter
      end
      waiter&.fulfill(true)
    end

    def give_up(promise)
      handed = @mutex.synchronize_masked { !@waiting.delete(promise) }
      release_held if handed # fulfilled after the check: the slot is ours, pass it on
    end

    # Under the lock: the next waiter keeps the slot being released; with
    # none, the slot is freed.
    def next_waiter
      waiter = @waiting.shift
      @count -= 1 unless waiter
      waiter
    end
  end
end
