# frozen_string_literal: true

require_relative "handlers"
require_relative "masks"
require_relative "workers/backend"
require_relative "workers/backends"
require_relative "workers/chunk"
require_relative "workers/error"
require_relative "workers/fibers/backend"
require_relative "workers/gc_release"
require_relative "workers/inline/backend"
require_relative "workers/item_backtrace"
require_relative "workers/job"
require_relative "workers/lane"
require_relative "workers/map_options"
require_relative "workers/options"
require_relative "workers/pool"
require_relative "workers/pool_options"
require_relative "workers/processes/backend"
require_relative "workers/processes/child"
require_relative "workers/processes/codec"
require_relative "workers/processes/lane"
require_relative "workers/ractors/backend"
require_relative "workers/ractors/collector"
require_relative "workers/ractors/doorbell"
require_relative "workers/ractors/experimental_note"
require_relative "workers/ractors/handle"
require_relative "workers/ractors/isolation"
require_relative "workers/ractors/lane"
require_relative "workers/ractors/mailroom"
require_relative "workers/ractors/reserve"
require_relative "workers/ractors/worker"
require_relative "workers/threads/backend"
require_relative "workers/wire"
require_relative "workers/wire_reader"
require_relative "masked_lock"

# Workers: one interface over inline, fiber, thread, process and ractor
# backends. See docs/workers.md.
module Heddle
  # The machinery behind {Heddle::Pool} and {Heddle.map}: backends, jobs, chunks
  # and the errors they raise.
  module Workers
    # A thread of heddle's workers, taking interrupts whatever its maker's
    # Thread.handle_interrupt masks (a new thread inherits them, and a pool
    # starts with interrupts held back): Thread#kill, a pool's shutdown and
    # a process's exit must reach it. The body unmasks itself: unmasking
    # around Thread.new would let the maker's own held-back interrupts in.
    # @param args [Array] given to the block, as Thread.new does
    # @return [Thread]
    def self.thread(*args, &body)
      Thread.new(*args) { |*given| Thread.handle_interrupt(Masks::INTERRUPTIBLE) { body.call(*given) } }
    end

    @live = ObjectSpace::WeakMap.new
    @live_lock = MaskedLock.new

    class << self
      # @api private
      # Remembers started backends (weakly: a backend whose workers are gone
      # may be collected) so that at exit none is left running.
      def register(backend)
        @live_lock.synchronize { @live[backend] = true }
      end

      # @api private
      def unregister(backend)
        @live_lock.synchronize { @live[backend] = false }
      end

      # @api private
      # Stops every pool still running (called at exit), so no worker process
      # outlives the program.
      def shutdown_all
        backends = @live_lock.synchronize { @live.select { |_, live| live }.map(&:first) }
        backends.each { |backend| backend.shutdown(kill: true) unless backend.shutdown? }
        Processes::Backend.drain_reaper # the killed workers, so that none outlives the program
      end

      # @api private
      # @return [Heddle::Promise] a new unresolved promise
      def new_promise = Heddle::Promise.new

      # @api private
      # {Heddle.map} once its block is checked: checks every other argument,
      # once, before a worker starts or an item is read; the pool and its map
      # are then made from the checked options and check nothing again.
      # @param items [Enumerable]
      # @param worker [Symbol]
      # @param size [Integer, nil]
      # @param item_timeout [Numeric, nil]
      # @param map_options [Hash] as for {Heddle.map}
      # @return [Array] results in input order
      # @raise [ArgumentError, TypeError, Exception] as {Heddle.map}
      def map!(items, worker: :thread, size: nil, item_timeout: nil, **map_options, &block)
        remote = map_options.slice(*(map_options.keys - %i[timeout fail_fast]))
        options = PoolOptions.check!(worker, size, block, item_timeout: item_timeout, remote: remote,
                                                          block_checked: true)
        Options.items!(items)
        run = MapOptions.from!(map_options.slice(:timeout, :fail_fast))
        map_checked(items.to_a, options, run, &block)
      end

      # @api private
      # Runs a map of checked items and options on a pool of its own, shut
      # down afterwards.
      # @param items [Array]
      # @param options [PoolOptions]
      # @param run [MapOptions]
      # @return [Array] results in input order
      def map_checked(items, options, run, &)
        # The pool is held from before its first worker starts: an
        # interrupt (Thread#raise, Thread#kill, a Timeout) landing while it
        # starts, or as it is returned, left its workers running with nobody
        # to shut them down. The shutdown runs with interrupts held back, and
        # only the start and the map take them: one landing at the start of
        # the ensure, or inside the shutdown, left a worker thread and its
        # pipe behind. (The workers' threads are made in the interruptible
        # part: a new thread inherits its maker's masks.)
        pool = nil
        Thread.handle_interrupt(Masks::UNINTERRUPTED) do
          Thread.handle_interrupt(Masks::INTERRUPTIBLE) do
            started(items, options.within(run.timeout), ->(made) { pool = made }, &)
            pool.map_checked(items, run)
          end
        ensure
          pool&.shutdown(kill: true)
        end
      end

      # @api private
      # A machinery error before any item ran (a block no ractor can run)
      # has a result slot, nil, for every item.
      # @param items [Array]
      # @param options [PoolOptions]
      # @param made [#call] given the pool before it starts (see Pool.checked)
      # @return [Pool] started
      def started(items, options, made, &)
        Pool.checked(options.sized_for(items.size), made, &)
      rescue Workers::Error => e
        e.results = Array.new(items.size) if e.results.nil? || e.results.empty?
        raise
      end
    end
  end

  class << self
    # Runs the block on every item with a fresh pool of workers, which is shut
    # down afterwards. For repeated maps keep a {Heddle::Pool} instead. Every
    # argument is checked before a worker starts or an item is read.
    #
    # @param items [Enumerable]
    # @param worker [Symbol] :inline, :fiber, :thread, :process, :ractor or :redis
    # @param size [Integer, nil] workers (default: cores for process and ractor)
    # @param item_timeout [Numeric, nil] seconds per item (nil or Float::INFINITY: no limit)
    # @param map_options [Hash] `timeout:` (seconds for the whole map) and `fail_fast:` (stop at
    #   the first error, the default, or collect all), as for {Heddle::Pool#map}; with worker: :redis
    #   also the pool's `handler:`, `url:`, ..., as for {Heddle::Pool#initialize}
    # @return [Array] results in input order
    # @raise [ArgumentError] on an unknown worker, a bad size or timeout, or no block
    # @raise [TypeError] on items that are not Enumerable, a timeout that is not a number, a fail_fast
    #   that is not true or false
    # @raise [Exception] see {Heddle::Pool#map}
    # @example
    #   Heddle.map([1, 2, 3], worker: :process, size: 2) { |n| n * n } # => [1, 4, 9]
    def map(items, worker: :thread, size: nil, item_timeout: nil, **map_options, &block)
      Workers::Options.block!(block, "Heddle.map(items)") unless Workers::Backends.remote?(worker)
      Workers.map!(items, worker: worker, size: size, item_timeout: item_timeout, **map_options, &block)
    end

    # Like {Heddle.map}, for side effects.
    # @param items [Enumerable]
    # @param options [Hash] as for {Heddle.map}
    # @return [Enumerable] items
    # @raise [ArgumentError, TypeError, Exception] as {Heddle.map}
    # @example
    #   Heddle.each(%w[a b], worker: :thread) { |s| puts s }
    def each(items, **options, &block)
      Workers::Options.block!(block, "Heddle.each(items)")
      Workers.map!(items, **options, &block)
      items
    end

    # Like {Heddle.each}; the block receives each item and its index.
    # @param items [Enumerable]
    # @param worker [Symbol] as for {Heddle.map}
    # @param size [Integer, nil] as for {Heddle.map}
    # @param item_timeout [Numeric, nil] as for {Heddle.map}
    # @param map_options [Hash] `timeout:` and `fail_fast:`, as for {Heddle.map}
    # @return [Enumerable] items
    # @raise [ArgumentError, TypeError, Exception] as {Heddle.map}
    # @example
    #   Heddle.each_with_index(%w[a b], worker: :thread) { |s, i| puts "#{i}: #{s}" }
    def each_with_index(items, worker: :thread, size: nil, item_timeout: nil, **map_options, &block)
      Workers::Options.block!(block, "Heddle.each_with_index(items)")
      Workers::Options.items!(items)
      options = Workers::PoolOptions.check!(worker, size, block, item_timeout: item_timeout, block_checked: true)
      run = Workers::MapOptions.from!(map_options)
      Workers.map_checked(items.each_with_index.to_a, options, run) { |(item, index)| block.call(item, index) }
      items
    end
  end
end

at_exit { Heddle::Workers.shutdown_all }
