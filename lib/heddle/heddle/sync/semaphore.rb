# frozen_string_literal: true

module Heddle
  # Lets at most +limit+ holders in at a time: "10 of these 50 requests at
  # once". Threads and fibers may share one: a concurrent proc, a fiber under
  # {Heddle.run} and a plain thread each wait their own way (a heddle fiber
  # suspends only itself, a thread blocks), through a {Heddle::Promise}.
  # Waiters get in first come, first served; a release hands its slot
  # straight to the next waiter, so a newcomer cannot overtake them.
  #
  # A wait that is interrupted ({Heddle.with_timeout}, a cancelled proc,
  # Thread#raise) leaves the queue, or hands back the slot it was given
  # meanwhile: no slot is ever lost.
  #
  # @example
  #   semaphore = Heddle::Semaphore.new(2)
  #   Heddle.run do
  #     5.times.map { |i| Heddle.concurrently { semaphore.acquire { sleep 0.01; i } } }.map(&:await_result)
  #   end # => [0, 1, 2, 3, 4], two at a time
  class Semaphore
    # @return [Integer] how many may hold it at once
    attr_reader :limit

    # @param limit [Integer] at least 1
    # @raise [TypeError] unless +limit+ is an Integer
    # @raise [ArgumentError] unless +limit+ is at least 1
    def initialize(limit)
      raise TypeError, "Semaphore.new: limit must be an Integer, got #{limit.inspect}" unless limit.is_a?(Integer)
      raise ArgumentError, "Semaphore.new: limit must be at least 1, got #{limit}" unless limit >= 1

      @limit = limit
      @count = 0
      @waiting = []
      @mutex = Thread::Mutex.new
    end

    # Takes a slot, waiting while all +limit+ are held. With a block, holds
    # the slot for the block only and returns the block's value.
    # @yieldreturn [Object]
    # @return [true, Object] true, or the block's value
    # @example
    #   semaphore = Heddle::Semaphore.new(1)
    #   semaphore.acquire { :held } # => :held
    def acquire
      wait_for_slot
      return true unless block_given?

      begin
        yield
      ensure
        release
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
      waiter = @mutex.synchronize do
        raise Heddle::Error, "Semaphore#release: no slot is held (acquire first)" if @count.zero?

        next_waiter
      end
      waiter&.fulfill(true)
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
    def wait_for_slot
      # No `return` from inside the block: a non-local return out of
      # synchronize tripled the cost of an uncontended acquire (bench sync).
      promise = @mutex.synchronize do
        if @count < @limit && @waiting.empty?
          @count += 1
          nil
        else
          Promise.new.tap { |waiter| @waiting << waiter }
        end
      end
      await(promise) if promise
    end

    # Waits for the hand-over; interrupted, leaves the queue or gives back
    # the slot handed over meanwhile.
    def await(promise)
      promise.wait
      waited = true
    ensure
      give_up(promise) unless waited
    end

    def give_up(promise)
      handed = @mutex.synchronize { !@waiting.delete(promise) }
      release if handed # fulfilled after the check: the slot is ours, pass it on
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
