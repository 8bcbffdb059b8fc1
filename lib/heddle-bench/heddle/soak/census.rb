# frozen_string_literal: true

require "json"
require "heddle/soak"

module Heddle
  # The soak's loads (lib/heddle-bench/heddle/soak.rb).
  module Soak
    # An opt-in soak load that records, every INTERVAL seconds, live objects
    # per class (after a GC), GC.stat, RSS, the allocator's totals
    # ({MallocInfo}) and YJIT's code size to a JSON-lines file, to find what
    # grows in a long soak:
    #
    #   heddle soak --seconds 600 --require heddle/soak/census
    #
    # It walks the whole heap at each sample, so it is not a default load.
    class Census < Load
      # Seconds between samples.
      INTERVAL = 15
      # The classes with the most live objects kept per sample.
      TOP = 60
      # YJIT statistics kept per sample.
      YJIT_KEYS = %i[inline_code_size outlined_code_size yjit_alloc_size compiled_iseq_count].freeze

      def initialize
        super
        @out = ENV.fetch("HEDDLE_CENSUS_OUT", "heddle-census.jsonl")
        @last = -INTERVAL
      end

      # @return [Symbol]
      def name = :census

      # @param _random [Random]
      # @return [void]
      def round(_random)
        now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        return if now - @last < INTERVAL # the loads run in turn: a pause here would slow them all

        @last = now
        File.open(@out, "a") { |file| file.puts(JSON.generate(sample(now))) }
      end

      private

      def sample(now)
        GC.start
        { t: now.round, rss_kb: File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i,
          heap_live: GC.stat(:heap_live_slots), heap_pages: GC.stat(:heap_allocated_pages),
          malloc_increase: GC.stat(:malloc_increase_bytes), malloc: MallocInfo.call, yjit: yjit, top: per_class }
      end

      def per_class
        counts = Hash.new(0)
        name = Module.instance_method(:name) # a class may redefine .name
        ObjectSpace.each_object(Object) { |object| counts[name.bind_call(object.class) || "anon"] += 1 }
        counts.max_by(TOP) { |_, count| count }.to_h
      end

      def yjit
        return {} unless defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?

        RubyVM::YJIT.runtime_stats.slice(*YJIT_KEYS)
      end
    end

    Loads.register(:census) { Census.new }
  end
end
