# frozen_string_literal: true

require "etc"
require_relative "../loop"

module Heddle
  module Workers
    # The worker backends, by the keyword that picks them (`worker: :thread`):
    # one line each, which every check at the door ({Options},
    # {PoolOptions}) and {Heddle::Pool} read. A new backend is a folder of
    # its own under workers/ and one line in {LIST}.
    module Backends
      # One backend.
      #
      # - name: the `worker:` keyword
      # - class_name: its backend class, below Heddle::Workers (a {Backend})
      # - default_size: workers when `size:` is nil; a Proc is asked each
      #   time; nil leaves it to the backend (a remote one: its workers'
      #   own concurrency)
      # - max_size: the most workers a pool may have: more is a request the
      #   machine cannot honour (a fiber's stack takes two kernel mappings,
      #   and vm.max_map_count is 65,530 by default; a thread or a process
      #   costs more), refused at the door rather than found out after
      #   minutes of starting them (size: 10**8 fibers hung)
      # - keywords: what it takes besides `size:`, `item_timeout:` and the
      #   block: `:lazy` (`lazy: true`), `:remote` (no block, but options its
      #   class checks with `.validate!(block, options)` and bounds with
      #   `.within(options, seconds)`)
      # - feature, gem: for a backend another gem ships, the file to require
      #   before its class exists, and the gem to name when it is missing
      Entry = Struct.new(:name, :class_name, :default_size, :max_size, :keywords, :feature, :gem,
                         keyword_init: true) do
        # @return [Integer, nil] workers when `size:` is nil
        def default = default_size.respond_to?(:call) ? default_size.call : default_size

        # @param keyword [Symbol] :lazy or :remote
        # @return [Boolean]
        def takes?(keyword) = keywords.include?(keyword)

        # @return [Boolean] whether its workers run elsewhere: options instead of a block
        def remote? = takes?(:remote)

        # @return [Class] the backend class, its gem loaded first when another gem ships it
        # @raise [LoadError] naming the gem to add when that gem is not installed
        def backend_class
          load_feature if feature
          Workers.const_get(class_name)
        end

        private

        # A LoadError from inside the feature (a file it needs is missing) is
        # not a missing gem and is raised as it is.
        def load_feature
          require feature
        rescue LoadError => e
          raise unless e.path == feature

          raise LoadError, "worker: #{name.inspect} needs the #{gem} gem: run `gem install #{gem}`, or add " \
                           "`gem \"#{gem}\"` to your Gemfile and run `bundle install`"
        end
      end

      # Process and ractor pools: one worker per core.
      CORES = -> { Etc.nprocessors }

      # Every backend, in the order messages list them.
      LIST = [
        Entry.new(name: :inline, class_name: "Inline::Backend", default_size: 1, max_size: 10_000, keywords: []),
        Entry.new(name: :fiber, class_name: "Fibers::Backend", default_size: 64, max_size: EventLoop::MAX_LIVE_FIBERS,
                  keywords: []),
        Entry.new(name: :thread, class_name: "Threads::Backend", default_size: 8, max_size: 10_000, keywords: []),
        Entry.new(name: :process, class_name: "Processes::Backend", default_size: CORES, max_size: 1_024,
                  keywords: %i[lazy]),
        Entry.new(name: :ractor, class_name: "Ractors::Backend", default_size: CORES, max_size: 1_024, keywords: []),
        Entry.new(name: :redis, class_name: "Redis::Backend", default_size: nil, max_size: 10_000, keywords: %i[remote],
                  feature: "heddle/workers/redis", gem: "heddle-redis")
      ].each(&:freeze).freeze

      # The backends by name.
      BY_NAME = LIST.to_h { |entry| [entry.name, entry] }.freeze

      # Every `worker:` keyword, in {LIST}'s order.
      NAMES = LIST.map(&:name).freeze

      # The most workers for a name no backend has (no pool is made for it).
      MAX_SIZE_OTHER = 10_000

      class << self
        # @param name [Symbol] a `worker:` keyword, one of {NAMES}
        # @return [Entry]
        # @raise [KeyError] for any other name (the door, {Options.worker!}, refuses those first)
        def fetch(name) = BY_NAME.fetch(name)

        # @param name [Object]
        # @return [Boolean] whether name picks a backend
        def include?(name) = !entry(name).nil?

        # @param name [Object]
        # @return [Integer] the most workers a pool of that backend may have
        def max_size(name) = entry(name)&.max_size || MAX_SIZE_OTHER

        # @param name [Object]
        # @return [Boolean] whether name picks a backend that takes options instead of a block
        def remote?(name) = entry(name)&.remote? || false

        # @param keyword [Symbol] :lazy or :remote
        # @return [Array<Symbol>] the names of the backends that take it
        def taking(keyword) = LIST.select { |entry| entry.takes?(keyword) }.map(&:name)

        private

        # Any value may come to the door, a BasicObject among them: only a
        # Symbol is looked up (a Hash would ask the value for #hash).
        def entry(name)
          BY_NAME[name] if Symbol === name # rubocop:disable Style/CaseEquality -- a BasicObject has no is_a?
        end
      end
    end
  end
end
