# frozen_string_literal: true

require_relative "../masks"

module Heddle
  # A persistent set of workers running one block (the handler) on items.
  # Processes fork and ractors start once, in {#initialize}, and serve every
  # later {#map} and {#submit}, so repeated maps pay the start-up once.
  #
  # @example Square numbers in two worker processes
  #   pool = Heddle::Pool.new(worker: :process, size: 2) { |n| n * n }
  #   pool.map([1, 2, 3])          # => [1, 4, 9]
  #   pool.submit(4).value!        # => 16
  #   pool.shutdown
  class Pool
    # @return [Symbol] the worker kind
    attr_reader :worker

    # @param worker [Symbol] :inline, :fiber, :thread, :process, :ractor or :redis
    # @param size [Integer, nil] number of workers; nil picks {.default_size}
    # @param item_timeout [Numeric, nil] seconds allowed per item
    # @param lazy [Boolean] (:process only) fork each worker when work first
    #   waits for it instead of all at start: short-lived pools fork once
    # @param remote [Hash] (:redis only) `handler:` (a name given to {Heddle.handler}), `url:` and the
    #   options of Workers::Redis::Backend#initialize (the heddle-redis gem); no block (see docs/redis.md)
    # @yieldparam item [Object] one item
    # @yieldreturn [Object] its result
    # @raise [ArgumentError] on an unknown worker, a bad size or item_timeout,
    #   no block, or `lazy: true` for a worker other than :process
    # @raise [TypeError] on an item_timeout that is not a number, a lazy that is not true or false
    # @raise [Heddle::Workers::NotShareableError] (ractor) when the block cannot run in a ractor
    # @raise [LoadError] (:redis) when the heddle-redis gem (or its redis-client) is not installed
    def initialize(worker: :thread, size: nil, item_timeout: nil, lazy: false, **remote, &handler)
      keywords = { item_timeout: item_timeout, lazy: lazy, remote: remote }
      start(Workers::PoolOptions.check!(worker, size, handler, **keywords), handler)
    end

    # @return [Integer] the number of workers
    def size = @backend.size

    # Runs the handler on every item.
    #
    # @param items [Enumerable]
    # @param timeout [Numeric, nil] seconds for the whole map (nil or Float::INFINITY: no limit)
    # @param fail_fast [Boolean] stop at the first error (default) or collect all
    # @return [Array] the results, in input order
    # @raise [TypeError, ArgumentError] on items that are not Enumerable or a bad option (nothing runs)
    # @raise [Exception] the block's first error as itself, with #results, #item, #index
    # @raise [Heddle::Workers::Errors] (fail_fast: false) every error by index, with #results
    # @raise [Heddle::Workers::Error] a machinery failure (dead worker, timeout, ...), with #results
    # @example
    #   Heddle::Pool.new(worker: :thread, size: 2) { |x| x + 1 }.map([1, 2]) # => [2, 3]
    def map(items, timeout: nil, fail_fast: true)
      Workers::Options.items!(items)
      options = Workers::MapOptions.check!(timeout, fail_fast)
      map_checked(items.to_a, options)
    end

    # @api private
    # {#map} once its items and options are checked ({Heddle.map} checks
    # them before it makes the pool): nothing is checked again.
    # @param items [Array]
    # @param options [Workers::MapOptions]
    # @return [Array] as {#map}
    # @raise [Exception] as {#map}
    def map_checked(items, options)
      @backend.map(items, @handler, timeout: options.timeout, fail_fast: options.fail_fast)
    end

    # Runs the handler on each item for its side effects.
    # @param items [Enumerable]
    # @param options [Hash] as for {#map}
    # @return [Enumerable] items
    # @raise [ArgumentError, TypeError, Exception] as {#map}
    def each(items, **options)
      map(items, **options)
      items
    end

    # Queues one item.
    #
    # @param item [Object]
    # @return [Heddle::Promise] of the handler's result
    # @raise [Heddle::Workers::Error] when the pool is shut down
    # @example
    #   Heddle::Pool.new(worker: :thread) { |x| x * 2 }.submit(21).value! # => 42
    def submit(item)
      promise = Workers.new_promise
      @backend.submit(item, @handler, promise)
      promise
    end

    # Sends one message to a worker and waits for its answer (message passing
    # over the pool's channel: pipes, queues or ractor ports).
    #
    # @param message [Object]
    # @param timeout [Numeric, nil] seconds to wait for the answer (nil or Float::INFINITY: for ever)
    # @return [Object] the handler's answer
    # @raise [TypeError, ArgumentError] on a bad timeout (nothing is sent)
    # @raise [Exception] the handler's error
    # @example
    #   Heddle::Pool.new(worker: :process, size: 1) { |m| m == "STATUS" ? "OK" : "?" }.ask("STATUS") # => "OK"
    def ask(message, timeout: nil)
      # No call for the common nil: one ask per message is a hot path.
      timeout = Workers::Options.seconds!(:timeout, timeout) unless nil.equal?(timeout)
      # Fiber and thread pools answer without a job or a promise where they can.
      return @asker.ask(message, @handler, timeout) if @asker

      submit(message).value!(timeout)
    end

    # Waits for running items, stops the workers and reaps worker processes.
    # Calling it again does nothing.
    # @param kill [Boolean] drop queued items (their maps raise CancelledError) and stop at once
    # @return [nil]
    # @raise [TypeError] when kill is not true or false (the pool keeps running)
    def shutdown(kill: false)
      Workers::Options.boolean!(:kill, kill)
      return unless @backend # its start was interrupted before the backend existed

      @backend.shutdown(kill: kill)
      Workers.unregister(@backend)
      nil
    end

    # @return [Boolean]
    def shutdown? = @backend.shutdown?

    # @return [Array<Integer>] the ids of the worker processes (process pools; else empty)
    def worker_pids = @backend.worker_pids

    class << self
      # @param worker [Symbol]
      # @return [Integer, nil] cores for process and ractor, 8 threads, 64 fibers, 1 inline;
      #   nil for redis (the workers' own concurrency decides); see {Workers::Backends::LIST}
      def default_size(worker)
        Workers::Backends.include?(worker) ? Workers::Backends.fetch(worker).default : 1
      end

      # @api private
      # A pool from options {Workers::PoolOptions.check!} has passed
      # ({Heddle.map}): nothing is checked again.
      # @param options [Workers::PoolOptions]
      # @param made [#call, nil] given the pool before any worker starts, so
      #   that a caller interrupted meanwhile still holds it to shut it down
      # @return [Pool]
      def checked(options, made = nil, &handler)
        pool = allocate
        made&.call(pool)
        pool.send(:start, options, handler)
        pool
      end

      # @api private
      # The backend of a worker kind ({Workers::Backends}). A remote one
      # takes no block: its options name what its workers run.
      # @param options [Workers::PoolOptions]
      # @param handler [Proc, nil] the pool's block
      # @return [Workers::Backend]
      def backend(options, handler)
        entry = Workers::Backends.fetch(options.worker)
        if entry.remote?
          return entry.backend_class.new(size: options.size, item_timeout: options.item_timeout,
                                         **options.backend_options)
        end

        entry.backend_class.new(size: options.size || entry.default, handler: handler,
                                item_timeout: options.item_timeout, **options.backend_options)
      end

      # @api private
      # A finalizer that stops the backend without keeping the pool alive; it
      # runs in trap context (no Mutex), hence {Workers::Backend#release},
      # and in any ractor, hence {Workers::GCRelease}.
      def finalizer(backend) = Workers::GCRelease.finalizer(backend)
    end

    private

    # Starts the workers from checked options (Pool.new, {Pool.checked}),
    # with interrupts held back: one landing halfway left a backend with
    # some workers and no queue, which nobody could shut down (the interrupt
    # comes once the pool is whole; its workers' threads take interrupts,
    # Workers.thread).
    def start(options, handler)
      Thread.handle_interrupt(Masks::UNINTERRUPTED) do
        @worker = options.worker
        # The pool holds its block; the workers get it with each job (see Backend#initialize).
        @handler = handler
        @backend = Pool.backend(options, handler)
        @asker = @backend.respond_to?(:ask) ? @backend : nil
        Workers.register(@backend)
        ObjectSpace.define_finalizer(self, Pool.finalizer(@backend))
      end
    end
  end
end
